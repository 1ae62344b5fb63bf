// `npm pack` / `npm publish` (prepack, postpack): the published package.json has no `prepare`
// script. prepare builds dist/ where the package is installed from git (scripts/prepare.mjs);
// a tarball already holds dist/ and the grammars, and npm lists a package's prepare among the
// install scripts it warns about. prepack keeps the manifest as it was and postpack puts it back.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const manifest = path.join(root, "package.json");
const kept = path.join(root, ".package.json.prepack");

if (process.argv[2] === "prepack") {
  // A pack interrupted before postpack left the real manifest here: never lose it.
  if (!existsSync(kept)) writeFileSync(kept, readFileSync(manifest));
  const pkg = JSON.parse(readFileSync(kept, "utf8"));
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (process.argv[2] === "postpack") {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error("usage: node scripts/pack.mjs prepack|postpack");
  process.exit(2);
}
