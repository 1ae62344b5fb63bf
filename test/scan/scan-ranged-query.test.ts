// Issue 14: the definitions query runs only around the tags. The answer must be the one of a
// query over the whole tree, for every file: each fixture of every language, and real files
// nobody here wrote (node_modules, Python's standard library, C headers) with tags planted at
// many places (above lines, inside bodies, at the end), chosen by a seeded generator.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scanTextWith } from "../../src/scan/engine/index.js";
import { languageForPath } from "../../src/scan/grammar/languages.js";
import { loadLanguage } from "../../src/scan/grammar/runtime.js";
import { filesUnder, REPO } from "./scan-helpers.js";

const T = "speky" + ":";

/** Both ways, for one text: the same tags, diagnostics and outline. */
async function expectSame(file: string, text: string): Promise<number> {
  const language = languageForPath(file);
  if (!language) return 0;
  const lang = await loadLanguage(language);
  const tree = lang.parser.parse(text)!;
  try {
    const ranged = scanTextWith(lang, file, text, tree);
    const whole = scanTextWith(lang, file, text, tree, true);
    expect(ranged, file).toEqual(whole);
    return ranged.tags.length;
  } finally {
    tree.delete();
  }
}

let seed = 20261130;
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};

/** A copy of `text` with tags written at a few line starts (indented as the line is), and one at the end. */
function planted(text: string, comment: string): string {
  const lines = text.split("\n");
  const count = 1 + random(4);
  for (let k = 0; k < count; k++) {
    const at = random(lines.length);
    const indent = /^\s*/.exec(lines[at])![0];
    lines.splice(at, 0, `${indent}${comment} ${T}p#R${k}`);
  }
  return `${lines.join("\n")}\n${comment} ${T}p#END\n`;
}

const COMMENT: Record<string, string> = { python: "#", ruby: "#", bash: "#", elixir: "#" };

describe("the query around the tags answers as the query over the whole tree", () => {
  // speky:speky-ts#TSCAN-RANGED-QUERY
  it("for every scan fixture of every language", async () => {
    const files = filesUnder(path.join(REPO, "fixtures/scan"), (f) => !f.endsWith(".json"), 10_000);
    let tags = 0;
    for (const file of files) tags += await expectSame(file, readFileSync(file, "utf8"));
    expect(tags).toBeGreaterThan(100);
  }, 300_000);

  // speky:speky-ts#TSCAN-RANGED-QUERY
  it("for real files with tags planted at seeded places", async () => {
    const sources = [
      ...filesUnder(path.join(REPO, "node_modules/zod"), (f) => /\.(?:js|ts)$/.test(f), 60),
      ...filesUnder(path.join(REPO, "node_modules/yaml/dist"), (f) => f.endsWith(".js"), 40),
      ...filesUnder("/usr/lib/python3.11", (f) => f.endsWith(".py"), 60),
      ...filesUnder("/usr/include", (f) => f.endsWith(".h"), 40),
    ];
    expect(sources.length).toBeGreaterThan(50);
    let tags = 0;
    for (const file of sources) {
      const language = languageForPath(file);
      if (!language) continue;
      const text = readFileSync(file, "utf8");
      if (text.includes("\0")) continue;
      tags += await expectSame(file, planted(text, COMMENT[language] ?? "//"));
    }
    expect(tags).toBeGreaterThan(100);
  }, 300_000);
});
