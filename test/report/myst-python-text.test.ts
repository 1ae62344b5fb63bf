// The Python string operations of speky's generator, against Debian's python3 itself:
// str.title() on every assigned character, '{:.0%}' on every fraction up to 200, sorted() on
// strings outside the BMP and on paths, str(Path(...)).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { compareCodePoints, compareParts, pyPathString, pyPercent, pyTitle } from "../../src/myst/python-text.js";

const PYTHON = "/usr/bin/python3";

function python(script: string, input: string): string {
  const run = spawnSync(PYTHON, ["-c", script], { input, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

describe("Python's string operations, as speky's pages need them", () => {
  // speky:speky-ts#TSPEKY-PYTHON-TEXT
  it("titles every character as str.title() does, alone and after a cased letter", () => {
    // Characters whose case mappings or casedness Python's Unicode version does not give as
    // Node's does are left out: those are the only ones where two Python versions disagree too.
    const [assigned, cased] = JSON.parse(
      python(
        "import sys,json,unicodedata\n" +
          "known=lambda c: unicodedata.category(c)!='Cn'\n" +
          "ok=lambda c: known(c) and all(known(x) for x in c.upper()+c.lower()+c.title())\n" +
          "cs=[chr(c) for c in range(0x110000) if not 0xd800<=c<0xe000 and ok(chr(c))]\n" +
          "sys.stdout.write(json.dumps([''.join(cs), ''.join(c for c in cs if (c+'b').title()[-1]=='b')]))",
        "",
      ),
    ) as [string, string];
    const known = new Set(Array.from(assigned));
    const pythonCased = new Set(Array.from(cased));
    const points = [...known].filter(
      (c) => Array.from(c.toUpperCase() + c.toLowerCase()).every((x) => known.has(x)) && /\p{Cased}/u.test(c) === pythonCased.has(c),
    );
    expect(points.length).toBeGreaterThan(140_000);
    // One word per character, alone and after an 'a' (lower case after a cased letter), and
    // final sigmas in and out of words.
    const words = [...points.flatMap((c) => [c, `a${c}`, `${c}b`]), "ΣΟΦΟΣ", "ΣΟΦΟΣ ΣΑ", "aΣ'", "x2y they're ßtraße ǆ ﬁ"];
    const theirs = python(
      "import sys,json\nsys.stdout.write(json.dumps([w.title() for w in json.load(sys.stdin)]))",
      JSON.stringify(words),
    );
    const expected = JSON.parse(theirs) as string[];
    const wrong = words.map((w, i) => [w, pyTitle(w), expected[i]]).filter(([, ours, py]) => ours !== py);
    expect(wrong.slice(0, 20)).toEqual([]);
  });

  it("rounds percentages as '{:.0%}' does (half to even)", () => {
    const pairs: [number, number][] = [];
    for (let total = 1; total <= 200; total++) for (let n = 0; n <= total; n++) pairs.push([n, total]);
    const theirs = python(
      "import sys,json\nsys.stdout.write(json.dumps([f'{n / t:.0%}' for n, t in json.load(sys.stdin)]))",
      JSON.stringify(pairs),
    );
    expect(pairs.map(([n, t]) => pyPercent(n, t))).toEqual(JSON.parse(theirs));
    expect(pyPercent(1, 8)).toBe("12%");
    expect(pyPercent(3, 8)).toBe("38%");
  });

  it("sorts strings by code point and paths part by part, and prints paths as pathlib", () => {
    const strings = ["b", "a", "\u{1f600}", "\uffff", "Z", "é", "a-b", "a_b", "a/b"];
    const paths = ["a/b", "a.b/c", "a-c", "a/b/c", "ab", "a"];
    const given = ["./specs//a.yaml", "specs/./a.yaml/", ".", "", "/abs//x", "//net/x", "///x", "../up/./x"];
    const theirs = JSON.parse(
      python(
        "import sys,json\nfrom pathlib import PurePosixPath as P\nd=json.load(sys.stdin)\n" +
          "sys.stdout.write(json.dumps([sorted(d[0]), [str(p) for p in sorted(map(P, d[1]))], [str(P(g)) for g in d[2]]]))",
        JSON.stringify([strings, paths, given]),
      ),
    );
    expect([[...strings].sort(compareCodePoints), [...paths].sort(compareParts), given.map(pyPathString)]).toEqual(theirs);
  });
});
