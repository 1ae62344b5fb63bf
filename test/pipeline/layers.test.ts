// The layers of src/ (scripts/layers.mjs, run by `npm run lint`): the real tree keeps them, and
// the first import that runs back up, or across two surfaces, is named with its file and line.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script of the repository, without types
import { LAYERS, violations } from "../../scripts/layers.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const src = path.join(mkdtempSync(path.join(os.tmpdir(), "speky-layers-")), "src");
  dirs.push(path.dirname(src));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(src, name)), { recursive: true });
    writeFileSync(path.join(src, name), text);
  }
  return src;
}

describe("the layers of src/", () => {
  // speky:speky-ts#TLAYERS-CHECKED
  it("hold on the real tree, and every folder of src/ is in a layer", () => {
    expect(violations()).toEqual([]);
    expect(LAYERS.flatMap((l: { folders: string[] }) => l.folders)).toContain("model");
  });

  // speky:speky-ts#TLAYERS-CHECKED
  it("refuse an import upward, one across two surfaces, and a folder in no layer", () => {
    const src = tree({
      "model/coverage.ts": 'import type { Tool } from "../mcp/tool.js";\nexport const x = 1;\n',
      "mcp/tool.ts": 'import { esc } from "../report/escape.js";\nimport { x } from "../model/coverage.js";\n',
      "report/escape.ts": 'export const esc = "";\n',
      "widgets/w.ts": 'import { x } from "../model/coverage.js";\n',
    });
    const found = violations(src).map((v: string) => v.slice(v.indexOf("src/") + 4));
    expect(found).toEqual([
      "mcp/tool.ts:1: src/mcp imports src/report (../report/escape.js), a folder of the same layer",
      "model/coverage.ts:1: src/model imports src/mcp (../mcp/tool.js), a folder of a higher layer",
      "widgets/w.ts:1: folder src/widgets is in no layer of scripts/layers.mjs",
    ]);
  });
});
