// The summary line of `speky check` counts what was checked: every spec and scanned file of a
// whole check, only the named files checked when FILEs are named (pre-commit's staged files).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runSpeky, tempDir } from "../support/process.js";

/** A manifest, five spec files, four source files: one with a dangling tag, one with a tag in a string. */
function tree(): string {
  const dir = tempDir("speky-ts-check-summary-");
  const files: Record<string, string> = {
    "speky.yaml": "kind: project\nname: shop\nfiles: [specs/*.yaml]\ncode_sources: ['src/**/*.py']\n",
    "src/bad.py": "# speky:shop#REQ-9\ndef bad():\n    return 'speky:shop#REQ-1'\n",
    "src/good.py": "# speky:shop#REQ-1\ndef good():\n    pass\n",
    "src/other.py": "# speky:shop#REQ-2\ndef other():\n    pass\n",
    "src/more.py": "def more():\n    pass\n",
  };
  for (let i = 1; i <= 5; i++) {
    files[`specs/reqs-${i}.yaml`] = `kind: requirements\ncategory: f\nrequirements:\n  - id: REQ-${i}\n    long: Number ${i}.\n`;
  }
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const FINDINGS =
  "src/bad.py:1:3: error: tag speky:shop#REQ-9 names an unknown ID 'REQ-9'; did you mean REQ-1?\n" +
  "src/bad.py:3:13: warning: tag in a string literal is not a tag\n";

describe("the check's summary", () => {
  // speky:speky-ts#TCHECK-COUNT
  it("counts the named files checked when FILEs are named, every file of a whole check", () => {
    const dir = tree();
    // Two files staged, as pre-commit passes them: two files checked, not the 11 of the tree.
    expect(runSpeky(["check", "--", "src/bad.py", "src/good.py"], dir)).toEqual({
      status: 1,
      stdout: `${FINDINGS}1 error, 1 warning in 2 files\n`,
      stderr: "",
    });
    // A staged spec file and a file outside code_sources (not checked: not counted).
    const mixed = runSpeky(["check", "--format", "json", "--", "specs/reqs-2.yaml", "src/good.py", "README.md"], dir);
    expect(JSON.parse(mixed.stdout).summary).toEqual({ errors: 0, warnings: 0, files: 2 });
    // A manifest named before the FILEs is checked too; named twice, counted once.
    expect(runSpeky(["check", "speky.yaml", "src/good.py", "--", "speky.yaml"], dir).stdout).toBe("0 errors, 0 warnings in 2 files\n");
    // No FILEs: the manifest, its five spec files and the four source files.
    expect(runSpeky(["check"], dir).stdout).toBe(`${FINDINGS}1 error, 1 warning in 10 files\n`);
  });
});
