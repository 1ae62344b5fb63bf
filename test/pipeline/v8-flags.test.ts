// The late-optimization flags of a cold scan (src/scan/read/v8-flags.ts) are set back to V8's
// defaults once the scan is done (a server goes on answering): the values written back are the
// defaults this Node's V8 prints for the same flags (`node --v8-options`), on each Node CI runs.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { OPTIMIZATION_FLAGS } from "../../src/scan/read/v8-flags.js";

/** Each flag's default as `node --v8-options` prints it: "default: --name=value". */
function v8Defaults(): Map<string, string> {
  const r = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  expect(r.status).toBe(0);
  return new Map([...r.stdout.matchAll(/default: --([\w-]+)=(\S+)/g)].map((m) => [m[1], m[2]]));
}

const parts = (flag: string) => /^--([\w-]+)=(\d+)$/.exec(flag)?.slice(1) ?? [];

describe("the late-optimization flags", () => {
  // speky:speky-ts#TSCAN-LATE-OPTIMIZATION
  it("are set back to exactly V8's defaults of this Node", () => {
    const defaults = v8Defaults();
    expect(defaults.size).toBeGreaterThan(100);
    expect(OPTIMIZATION_FLAGS.usual.length).toBeGreaterThan(0);
    for (const flag of OPTIMIZATION_FLAGS.usual) {
      const [name, value] = parts(flag);
      expect(defaults.get(name), flag).toBe(value);
    }
  });

  // speky:speky-ts#TSCAN-LATE-OPTIMIZATION
  it("name the same flags late and as usual, each larger late", () => {
    expect(OPTIMIZATION_FLAGS.late.map((f) => parts(f)[0])).toEqual(OPTIMIZATION_FLAGS.usual.map((f) => parts(f)[0]));
    OPTIMIZATION_FLAGS.late.forEach((flag, i) => {
      expect(Number(parts(flag)[1])).toBeGreaterThan(Number(parts(OPTIMIZATION_FLAGS.usual[i])[1]));
    });
  });
});
