// How the main run (main-run.ts) prints: a line, a time, the load average beside every figure
// (the machine is shared), and the closing table of goals measured against their targets.
import os from "node:os";

/** The machine is shared: every figure is printed with the 1-minute load average beside it. */
export const loadAverage = () => `load ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`;

export const log = (line = "") => console.log(line);
export const fmtMs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

export interface GoalRow {
  goal: string;
  measured: string;
  target: string;
  met: boolean | null;
}

export function printGoalTable(rows: GoalRow[]): void {
  const w = [36, 36, 20];
  log(`${"goal".padEnd(w[0])}${"measured".padEnd(w[1])}${"target".padEnd(w[2])}`);
  log("-".repeat(w[0] + w[1] + w[2] + 6));
  for (const r of rows) {
    const verdict = r.met === null ? "n/a" : r.met ? "met" : "MISSED";
    log(`${r.goal.padEnd(w[0])}${r.measured.padEnd(w[1])}${r.target.padEnd(w[2])}${verdict}`);
  }
}
