// The command line's stamps (src/fs/fast-stat.ts) answer as fs.statSync does, without its Stats object.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bindingStamper, useFastStat } from "../../src/fs/fast-stat.js";
import { type Kind, type Stamper, statStamp, statSyncStamp, useStamper } from "../../src/fs/stamp.js";
import { tempDir } from "../support/process.js";

const dir = tempDir("speky-fast-stat-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expected(p: string): [Kind, number[]] {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(p, { throwIfNoEntry: false });
  } catch {
    return ["missing", []]; // ENOTDIR, ELOOP
  }
  if (!st) return ["missing", []];
  const kind: Kind = st.isFile() ? "file" : st.isDirectory() ? "directory" : "other";
  return [kind, [st.size, st.mtimeMs, st.ctimeMs]];
}

describe("stamps", () => {
  // speky:speky-ts#TSCAN-FAST-STAT
  it("give statSync's kind, size, mtimeMs and ctimeMs for every kind of path, following links, whichever way", () => {
    const file = path.join(dir, "a.py");
    writeFileSync(file, "x = 1\n");
    mkdirSync(path.join(dir, "sub"));
    symlinkSync(file, path.join(dir, "link.py"));
    symlinkSync(path.join(dir, "gone"), path.join(dir, "dangling.py"));
    symlinkSync(path.join(dir, "loop2"), path.join(dir, "loop1"));
    symlinkSync(path.join(dir, "loop1"), path.join(dir, "loop2"));
    expect(spawnSync("mkfifo", [path.join(dir, "fifo")]).status).toBe(0);
    const paths = ["a.py", "sub", "link.py", "dangling.py", "fifo", "missing", "a.py/not-a-dir", "loop1"].map((p) => path.join(dir, p));
    // Every way a scan may stat: statSync's (servers), the binding's where this Node has it,
    // and whichever the command line's choice (useFastStat) left in place.
    useFastStat();
    const ways: [string, Stamper][] = [
      ["statSync", statSyncStamp],
      ["chosen", statStamp],
    ];
    const binding = bindingStamper();
    if (binding) ways.push(["binding", binding]);
    for (const [way, stamper] of ways) {
      for (const p of paths) {
        const out = new Float64Array(4).fill(-7);
        const kind = stamper(p, out, 1);
        const [want, stamp] = expected(p);
        expect(kind, `${way} ${p}`).toBe(want);
        if (kind !== "missing") expect([...out.subarray(1)], `${way} ${p}`).toEqual(stamp);
        else expect([...out], `${way} ${p}`).toEqual([-7, -7, -7, -7]);
        expect(out[0]).toBe(-7);
      }
    }
    useStamper(statSyncStamp);
  });
});
