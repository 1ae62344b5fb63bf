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

// `npm run bench -- lsp`: the language server's part alone; `npm run bench -- walk`: the walk bench alone (src/bench/walk.ts).
if (process.argv[2] === "lsp") {
  const { benchLspServer } = await import("./servers/server-goals.js");
  const rows = await benchLspServer(mkdtempSync(path.join(tmpdir(), "speky-bench-cache-")));
  log();
  printGoalTable(rows);
} else if (process.argv[2] === "scan") {
  await (await import("./scan/pairs-command.js")).benchScanPairs(process.argv.slice(3));
} else if (process.argv[2] === "walk") {
  await (await import("./walk.js")).benchWalk(log);
} else if (process.argv[2] === "results") {
  // `npm run bench -- results`: reading and matching 50,000 testcases, the server's reload (src/bench/results.ts).
  await (await import("./results.js")).benchResults(log);
} else if (process.argv[2] === "diff") {
  // `npm run bench -- diff`: speky diff of a one-file change alone (src/bench/diff.ts).
  await (await import("./diff.js")).benchDiff((line) => log(`   ${line}`));
} else if (process.argv[2] === undefined || process.argv[2] === "speed" || process.argv[2] === "report") {
  await (await import("./main-run.js")).mainRun();
} else {
  // `--help` or a typo must not start the three-minute main run.
  process.stderr.write(`npm run bench -- [speed|report|lsp|scan|walk|results|diff]: no section "${process.argv[2]}"\n`);
  process.exitCode = 2;
}
