// The README's quick start, run as written so that it never rots: its files (the blocks marked
// `<!-- file: PATH -->` between `<!-- quickstart -->` and `<!-- /quickstart -->`) are written into
// a temp folder, the package is packed as `npm pack` packs it, and each line of the `<!-- run -->`
// block runs there with the real npm; the last one prints the `<!-- output -->` block.
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { npmEnv } from "../support/npm-env.js";
import { REPO, scratchFolders } from "../support/process.js";

const STEP_MS = 5 * 60_000;
const scratch = scratchFolders();
afterAll(scratch.remove, STEP_MS);

interface QuickStart {
  files: Map<string, string>;
  commands: string[];
  output: string;
}

/** The quick start's blocks, as the README holds them. */
function quickStart(readme: string): QuickStart {
  const start = readme.indexOf("<!-- quickstart -->");
  const end = readme.indexOf("<!-- /quickstart -->");
  expect(start, "the README marks its quick start").toBeGreaterThan(-1);
  const text = readme.slice(start, end);
  const block = (marker: string) => [...text.matchAll(new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\`\\n`, "g"))];
  const files = new Map(block("file: (\\S+)").map((m) => [m[1], m[2]]));
  const [run] = block("run");
  const [output] = block("output");
  return {
    files,
    commands: run[1].split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#")),
    output: output[1],
  };
}

function sh(command: string, cwd: string): SpawnSyncReturns<string> {
  return spawnSync("sh", ["-c", command], { cwd, env: npmEnv(), encoding: "utf8", timeout: STEP_MS });
}

/** The package as `npm pack` packs it (prepack drops `prepare`: scripts/pack.mjs), from the built working tree. */
function pack(): string {
  const copy = scratch.tempDir("speky-ts-readme-pack-");
  for (const entry of ["bin", "dist", "grammars", "schema", "LICENSE", "README.md"]) {
    cpSync(path.join(REPO, entry), path.join(copy, entry), { recursive: true });
  }
  const manifest = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8"));
  delete manifest.scripts.prepare;
  writeFileSync(path.join(copy, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const packed = sh("npm pack --ignore-scripts --silent", copy);
  expect(packed.status, packed.stderr).toBe(0);
  return path.join(copy, packed.stdout.trim().split("\n").pop()!);
}

describe("the README's quick start", () => {
  // speky:speky-ts#TREADME-QUICKSTART
  it(
    "runs as written: its files, npm install of the packed tarball, npx speky check printing what it shows",
    async () => {
      const { files, commands, output } = quickStart(readFileSync(path.join(REPO, "README.md"), "utf8"));
      expect([...files.keys()]).toEqual(["speky.yaml", "specs/requirements.yaml", "specs/tests.yaml", "src/cart.py", "tests/test_cart.py"]);
      expect(commands.at(-1)).toBe("npx speky check");
      const project = scratch.tempDir("speky-ts-readme-");
      for (const [file, text] of files) {
        mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
        writeFileSync(path.join(project, file), text);
      }
      // The install line names the tarball `npm pack` writes for this version.
      const tarball = pack();
      expect(commands[0]).toBe(`npm install --save-dev ./${path.basename(tarball)}`);
      copyFileSync(tarball, path.join(project, path.basename(tarball)));
      let last: SpawnSyncReturns<string> | undefined;
      for (const command of commands) {
        last = sh(command, project);
        expect(last.status, `${command}:\n${last.stdout}\n${last.stderr}`).toBe(0);
      }
      expect(last!.stdout).toBe(output);
      // The tagged test makes the test plan automated.
      const scan = JSON.parse(sh("npx speky scan", project).stdout) as { references: { id: string; is_test: boolean }[] };
      expect(scan.references.map((r) => `${r.id} ${r.is_test}`)).toEqual(["REQ-CART-ADD false", "TEST-CART-ADD true"]);
    },
    2 * STEP_MS,
  );
});
