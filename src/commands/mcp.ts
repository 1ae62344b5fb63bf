// Entry of the `speky-mcp` binary. The specs are loaded and validated before anything is
// answered (a load error is reported on stderr and exits 1 without serving); a plain first
// `initialize` is then answered before the MCP SDK and the tools are even loaded
// (mcp/sdk/initialize.ts); the scan of the code sources runs in the background from then on,
// and the tools that need code references wait for it (scan-wait.ts). The files are watched and the model reloaded on change
// (src/live), unless --no-watch. With --http the same servers answer over Streamable HTTP, one
// per session (mcp-http.ts).
// Exit codes: 0 clean (stdin closed, or a signal with --http), 1 load error, 2 usage error.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { flag, formatOptions, HELP_OPTION, listOption, type OptionSpec, parseArgs, UsageError } from "../cli/args.js";
import { RESULTS_OPTION, WALK_OPTIONS } from "../cli/command.js";
import { ownOrAbove } from "../cli/default-manifests.js";
import { nowMs } from "../clock.js";
import { escapeControl, formatDiagnostic, hasErrors } from "../diagnostics.js";
import { holdScanUntil } from "../live/hold-scan.js";
import { LiveModel } from "../live/live-model.js";
import { createLogger, type Logger, type LogLevel } from "../mcp/log.js";
import { earlyInitializeAnswer } from "../mcp/sdk/initialize.js";
import { LineStdioTransport } from "../mcp/sdk/transport.js";
import type { Model } from "../model/model.js";
import { grouped, plural } from "../quote.js";
import { allowLateOptimization } from "../scan/read/v8-flags.js";
import { VERSION } from "../version.js";
import { HTTP_OPTIONS, type HttpInvocation, httpInvocation, httpToken, serveHttp } from "./mcp-http.js";
import { missingPaths } from "./mcp-paths.js";

const HELP = `speky-mcp ${VERSION}: serve a speky specification to coding agents over MCP (stdio, or HTTP with --http)

Usage:
  speky-mcp [PATH...] [-C CSV]... [--results GLOB]... [--no-watch] [--no-ignore] [--allow-outside] [--quiet | --verbose]
  speky-mcp --http [HOST:]PORT [--token-file FILE] [--allow-host NAME]... [--max-sessions N] [--max-requests N] [PATH...] [options above]
  speky-mcp --help | --version

PATH is a manifest (kind: project) or a specification file; CSV is an extra comment file.
Without PATH: ./speky.yaml, else the nearest speky.yaml above the current folder up to the
root of its git work tree (named on stderr).
Specs are loaded before serving; the manifests' code_sources are scanned in the background,
and tools that need code references wait for that scan (up to 20 s, then they answer with
what is known, marked partial). While serving, the spec files, the manifests' folders and the
code sources are watched: a change reloads the model (invalid specs keep the last good one in
service, and every answer says so). With JUnit XML test results (--results, or the manifests'
test_results), get_test and get_requirement tell what the last run verified, verification_status
sums it up, and a finished test run (a results file written) reloads the model too.
--no-watch serves the model loaded at start-up. Logs go to stderr.
--http serves MCP's Streamable HTTP at http://HOST:PORT/mcp instead of stdio, to any number of
sessions at once (docs/mcp-http.md): on 127.0.0.1 unless HOST says otherwise; beyond loopback
only with a bearer token (--token-file FILE, or SPEKY_MCP_TOKEN), which every request must carry.
Exit codes: 0 when the client closes stdin (with --http: on SIGINT or SIGTERM), 1 when the specs
do not load, 2 on usage errors.
`;

const OPTIONS: OptionSpec[] = [
  { name: "comment-csv", short: "C", value: "CSV", repeat: true, help: "an extra comment file" },
  { name: "no-watch", help: "serve the model loaded at start-up; do not watch the files" },
  RESULTS_OPTION,
  ...WALK_OPTIONS,
  { name: "quiet", short: "q", help: "print only errors on stderr" },
  { name: "verbose", help: "add debug lines: scan statistics, watched folders, reloads" },
  ...HTTP_OPTIONS,
  HELP_OPTION,
  // -v is speky's short form of --version: kept so that speky's client configs work unchanged.
  { name: "version", short: "v", help: "print the version and exit" },
  // speky's logging configuration file: accepted for drop-in use, not read.
  { name: "logging-config", short: "l", value: "FILE", help: "accepted for compatibility with speky; ignored" },
];

interface Invocation {
  paths: string[];
  /** Which manifest was used when it was found above the current folder. */
  note: string | null;
  csvs: string[];
  level: LogLevel;
  watch: boolean;
  allowOutside: boolean;
  ignore: boolean;
  results: string[];
  http?: HttpInvocation;
}

/** Milliseconds of quiet after a change before reloading: an editor's save is several events. */
const DEBOUNCE_MS = 100;

function parse(argv: readonly string[]): Invocation | "help" | "version" {
  const args = parseArgs(argv, OPTIONS);
  if (flag(args, "help")) return "help";
  if (flag(args, "version")) return "version";
  if (flag(args, "quiet") && flag(args, "verbose")) throw new UsageError("--quiet and --verbose exclude each other");
  // No PATH: ./speky.yaml, else the nearest above in the git work tree; never a walk below
  // (hosts start servers in the home folder).
  const found = args.positionals.length === 0 ? ownOrAbove(process.cwd()) : null;
  if (args.positionals.length === 0 && found === null) {
    throw new UsageError("missing manifest or specification file (no ./speky.yaml here, nor above it in a git work tree)");
  }
  const level: LogLevel = flag(args, "quiet") ? "quiet" : flag(args, "verbose") ? "verbose" : "normal";
  const http = httpInvocation(args);
  return {
    paths: found?.paths ?? args.positionals,
    note: found?.note ?? null,
    csvs: listOption(args, "comment-csv"),
    level,
    watch: !flag(args, "no-watch"),
    allowOutside: flag(args, "allow-outside"),
    ignore: !flag(args, "no-ignore"),
    results: listOption(args, "results"),
    ...(http ? { http } : {}),
  };
}

const counts = (model: Model) =>
  `${plural(model.requirementIds.length, "requirement")}, ${plural(model.testIds.length, "test")} and ` +
  `${plural(model.codeReferences.length, "code reference")}`;

function logScan(model: Model, log: Logger): void {
  if (!model.scanStats) return;
  const s = model.scanStats;
  log.debug(
    `scanned ${plural(s.files, "file")} (${grouped(s.files_with_tags)} with tags, ` + `${plural(s.tags, "tag")}) in ${Math.round(s.ms)} ms`,
  );
}

async function load(invocation: Invocation, log: Logger, scanAfter: Promise<void>): Promise<LiveModel | null> {
  const started = nowMs();
  const { live, diagnostics } = await LiveModel.open(
    invocation.paths,
    {
      csvs: invocation.csvs,
      allowOutside: invocation.allowOutside,
      ignore: invocation.ignore,
      results: invocation.results,
      ...(invocation.level === "verbose" ? { cacheNote: (line: string) => log.debug(escapeControl(line)) } : {}),
    },
    { debounceMs: DEBOUNCE_MS, background: true, afterWalk: holdScanUntil(process.env.SPEKY_MCP_HOLD_SCAN), scanAfter },
  );
  for (const d of diagnostics) log.diagnostic(d);
  if (!live || hasErrors(diagnostics)) return null;
  const model = live.current;
  const ms = Math.round(nowMs() - started);
  log.info(
    `loaded ${plural(model.requirementIds.length, "requirement")} and ${plural(model.testIds.length, "test")} in ${ms} ms; ` +
      `${invocation.http ? "starting the HTTP server" : "serving on stdio"}, scanning the code sources`,
  );
  live.once("scanned", (scanned) => {
    for (const d of scanned.scanDiagnostics) log.diagnostic(d);
    const total = Math.round(nowMs() - started);
    log.info(`loaded ${counts(scanned)}; scan done ${total} ms after start`);
    logScan(scanned, log);
  });
  return live;
}

// speky:speky-ts#LIVE-WATCH
/** Logs the live model's events, tells the `servers` when the IDs changed, and starts watching. */
function follow(live: LiveModel, invocation: Invocation, log: Logger, servers: () => readonly McpServer[]): void {
  live.on("swapped", (model, idsChanged) => {
    log.info(`reloaded: ${counts(model)}${idsChanged ? " (IDs changed)" : ""}`);
    logScan(model, log);
    // Warnings were printed at start-up; repeating them on every reload would drown the log.
    for (const d of live.snapshot().problems) log.debug(formatDiagnostic(d));
    if (!idsChanged) return;
    for (const server of servers()) {
      if (server.isConnected()) {
        server.server.sendResourceListChanged().catch((error: Error) => log.warn(`notification: ${error.message}`));
      }
    }
  });
  live.on("rejected", (problems) => {
    log.warn("the specification no longer loads; still serving the model loaded before:");
    for (const d of problems) log.diagnostic(d);
  });
  live.on("warning", (message) => log.warn(message));
  live.on("results", (model) => {
    const v = model.verification;
    if (v) log.debug(`read the test results again: ${plural(v.files.length, "file")}, ${plural(v.testcasesRead, "testcase")}`);
  });
  // Watching starts before anything is answered: a client that edits a spec as soon as it is
  // initialized sees the change served. The trees are watched after the first scan, and what
  // changed before is caught up then (src/live/live-model.ts).
  if (invocation.watch) {
    live.startWatching();
    void live.watchSettled().then(() => log.debug(`watching ${plural(live.watchedDirectories().length, "directory", "directories")}`));
  }
}

async function serve(
  live: LiveModel,
  invocation: Invocation,
  log: Logger,
  transport: LineStdioTransport,
  startScan: () => void,
): Promise<void> {
  let server: McpServer | null = null;
  follow(live, invocation, log, () => (server ? [server] : []));
  // speky:speky-ts#MCP-BACKGROUND-SCAN
  // The answer first, then the scan: both would otherwise share the thread.
  transport.answerEarly(earlyInitializeAnswer);
  startScan();
  // Loaded only now: the SDK and the tools are not needed to answer a plain `initialize`.
  const [{ connectSession, createServer }, { resultsGiven }] = await Promise.all([
    import("../mcp/server.js"),
    import("../results/sources.js"),
  ]);
  const verification = resultsGiven({ manifests: live.current.manifests, globs: invocation.results });
  const mcp = createServer(
    () => live.current,
    () => live.snapshot(),
    { verification },
  );
  server = mcp;
  const closed = new Promise<void>((resolve) => {
    mcp.server.onclose = resolve;
  });
  await connectSession(mcp, transport, transport.endEarly(), (message) => log.warn(message));
  await closed;
  live.stopWatching();
  log.debug("stdin closed, exiting");
}

/** The value of `read`, or the exit code of a usage error (2), its message printed. */
function orUsage<T>(read: () => T): T | 2 {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`speky-mcp: ${escapeControl(error.message)}\nTry 'speky-mcp --help'.\n`);
    return 2;
  }
}

async function serveOnHttp(
  live: LiveModel,
  invocation: Invocation & { http: HttpInvocation },
  token: string | null,
  log: Logger,
  startScan: () => void,
) {
  const { resultsGiven } = await import("../results/sources.js");
  return serveHttp(live, {
    invocation: invocation.http,
    token,
    verification: resultsGiven({ manifests: live.current.manifests, globs: invocation.results }),
    log,
    follow: (servers) => follow(live, invocation, log, servers),
    startScan,
  });
}

export async function main(argv: readonly string[]): Promise<number> {
  const invocation = orUsage(() => parse(argv));
  if (invocation === 2) return 2;
  if (invocation === "help") {
    process.stdout.write(`${HELP}\nOptions:\n${formatOptions(OPTIONS)}`);
    return 0;
  }
  if (invocation === "version") {
    process.stdout.write(`speky-mcp ${VERSION}\n`);
    return 0;
  }
  const http = invocation.http;
  const token = http ? orUsage(() => httpToken(http, process.env)) : null;
  if (token === 2) return 2;
  const log = createLogger(invocation.level);
  if (invocation.note) log.info(escapeControl(invocation.note));
  const missing = missingPaths(invocation.paths);
  if (missing.length > 0) {
    for (const d of missing) log.diagnostic(d);
    return 1;
  }
  // stdin is read from the start: the client's `initialize` is there when the specs are loaded.
  const transport = http ? null : new LineStdioTransport();
  if (transport) {
    transport.onerror = (error) => log.warn(`transport: ${error.message}`);
    transport.listenEarly();
  }
  let startScan!: () => void;
  const scanAfter = new Promise<void>((resolve) => (startScan = resolve));
  let live: LiveModel | null;
  try {
    live = await load(invocation, log, scanAfter);
  } catch (error) {
    log.error(`cannot load the specification: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof Error && error.stack) log.debug(error.stack);
    await transport?.close();
    return 1;
  }
  if (!live) {
    await transport?.close();
    return 1;
  }
  if (!transport) return serveOnHttp(live, { ...invocation, http: http! }, token, log, startScan);
  await serve(live, invocation, log, transport, startScan);
  return 0;
}

// The scanner restricts V8 to its baseline wasm compiler, process-wide (scan/read/v8-flags.ts),
// here as on the command line: the server's work is scans, mostly its first, whose workers
// compile the grammars afresh (they leave after a few idle seconds), and the optimising tier's
// background compiles took the cores from that first scan. Measured paired, 7 rounds at load
// 0.1-2.2: spawn → first code reference on the bench tree 2,724 → 2,358 ms (median; with the
// workers started before the walk, which the walk feed now does: read/read-jobs.ts).
// `SPEKY_WASM_TIERUP=1` keeps V8's default; V8's gc is exposed for memory (heap.ts). JS is
// optimized late while a scan reads the whole tree afresh (its first, without a cache), then
// as usual: the first code reference on the bench tree 5-10 % sooner (v8-flags.ts).
allowLateOptimization();
process.exitCode = await main(process.argv.slice(2));
// Once stdin is closed nothing is left to do: leave even if some library keeps a handle open.
setTimeout(() => process.exit(), 2000).unref();
