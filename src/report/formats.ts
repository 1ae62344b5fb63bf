// What `speky report` accepts, apart from the modules that write it: the command registry
// loads this at every start, the writers only when a report is asked for.
export const REPORT_FORMATS = ["html", "markdown"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const DEFAULT_OUT = "speky-report";
