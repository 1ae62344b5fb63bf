// `npm run bench [-- SECTION]`: which bench runs. Without a section (or with `speed` or
// `report`), the main run and its closing goals table (main-run.ts); each other section alone:
//   lsp      the language server's latency and its goals (servers/server-goals.ts)
//   scan     paired scans against rg, --base, --runs, --memory, --mcp (scan/pairs-command.ts)
//   walk     what one glob reaches, three ways (walk.ts)
//   results  reading and matching 50,000 testcases, the server's reload (results.ts)
//   diff     speky diff of a one-file change (diff.ts)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { log, printGoalTable } from "./goal-table.js";

const mainRun = async () => (await import("./main-run.js")).mainRun();

/** Each section by the name it is asked by; the usage line below is made of these names. */
const SECTIONS: Record<string, () => Promise<unknown>> = {
  speed: mainRun,
  report: mainRun,
  // The language server's part alone.
  lsp: async () => {
    const { benchLspServer } = await import("./servers/server-goals.js");
    const rows = await benchLspServer(mkdtempSync(path.join(tmpdir(), "speky-bench-cache-")));
    log();
    printGoalTable(rows);
  },
  scan: async () => (await import("./scan/pairs-command.js")).benchScanPairs(process.argv.slice(3)),
  walk: async () => (await import("./walk.js")).benchWalk(log),
  // Reading and matching 50,000 testcases, the server's reload (bench/results.ts).
  results: async () => (await import("./results.js")).benchResults(log),
  // speky diff of a one-file change alone (bench/diff.ts).
  diff: async () => (await import("./diff.js")).benchDiff((line) => log(`   ${line}`)),
};

const section = process.argv[2];
const run = section === undefined ? mainRun : Object.hasOwn(SECTIONS, section) ? SECTIONS[section] : undefined;
if (run) await run();
else {
  // `--help` or a typo must not start the three-minute main run.
  process.stderr.write(`npm run bench -- [${Object.keys(SECTIONS).join("|")}]: no section "${section}"\n`);
  process.exitCode = 2;
}
