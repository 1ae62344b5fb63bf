// The scanner keeps wasm on V8's baseline tier (src/scan/read/v8-flags.ts) on every Node it runs
// on: asked of V8 itself. A probe process loads the parser stack the way a scan's first file
// does (worker-task.ts warmUp: the flags, web-tree-sitter, its runtime), then runs a small wasm
// function hot and asks V8 (natives syntax) which tier the function is in. Where V8 has
// --wasm-sync-tier-up (Node 22, 24) tier-up happens at once when due, so the control run, with
// V8's default kept (SPEKY_WASM_TIERUP=1), is TurboFan every time and the scanner's run stays
// Liftoff only because of its flags; on Node 20 tier-up runs in the background and only the
// scanner's run is asserted.
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, tempDir } from "../support/process.js";

const dir = tempDir("speky-baseline-wasm-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// (func (param i32) (result i32) (local i32): adds n, n-1, ..., 1), exported as "f".
const SUM_MODULE = [
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, 0x03, 0x02, 0x01, 0x00, 0x07, 0x05, 0x01,
  0x01, 0x66, 0x00, 0x00, 0x0a, 0x1b, 0x01, 0x19, 0x01, 0x01, 0x7f, 0x03, 0x40, 0x20, 0x01, 0x20, 0x00, 0x6a, 0x21, 0x01, 0x20, 0x00, 0x41,
  0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, 0x20, 0x01, 0x0b,
];

function probeScript(): string {
  const workerTask = pathToFileURL(path.join(REPO, "dist/scan/read/worker-task.js")).href;
  return `import { warmUp } from ${JSON.stringify(workerTask)};
await warmUp();
const bytes = new Uint8Array(${JSON.stringify(SUM_MODULE)});
const { f } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
let sum = 0;
for (let k = 0; k < 2000; k++) sum += f(1000);
const tier = new Function("f", "return %IsTurboFanFunction(f) ? 'turbofan' : %IsLiftoffFunction(f) ? 'liftoff' : 'other'");
console.log(JSON.stringify({ tier: tier(f), sum }));
`;
}

/** Whether this Node's V8 knows --wasm-sync-tier-up (V8 12 and later). */
function hasSyncTierUp(): boolean {
  const options = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  return /--wasm-sync-tier-up\b/.test(options.stdout);
}

function tierAfterHotRun(probe: string, env: NodeJS.ProcessEnv, sync: boolean): { tier: string; sum: number } {
  const flags = ["--allow-natives-syntax", "--wasm-tiering-budget=1000", ...(sync ? ["--wasm-sync-tier-up"] : [])];
  const run = spawnSync(process.execPath, [...flags, probe], { encoding: "utf8", env: { ...process.env, ...env } });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as { tier: string; sum: number };
}

describe("the scanner's wasm tier", () => {
  // speky:speky-ts#TSCAN-BASELINE-WASM
  it("stays on Liftoff after a hot run on this Node, where V8's default tiers up to TurboFan", () => {
    const sync = hasSyncTierUp();
    const probe = path.join(dir, "probe.mjs");
    writeFileSync(probe, probeScript());
    const scanner = tierAfterHotRun(probe, { SPEKY_WASM_TIERUP: "" }, sync);
    expect(scanner).toEqual({ tier: "liftoff", sum: 2000 * 500_500 });
    if (sync) expect(tierAfterHotRun(probe, { SPEKY_WASM_TIERUP: "1" }, sync)).toEqual({ tier: "turbofan", sum: 2000 * 500_500 });
  });
});
