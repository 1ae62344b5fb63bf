// Where this machine keeps real code to parse: shared by the grammar bench and the test that
// runs every grammar on real files, so that both look in the same places.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The entries of `parent` whose names match, as paths; none when it cannot be read. */
export function childPaths(parent: string, pattern: RegExp): string[] {
  try {
    return readdirSync(parent).filter((n) => pattern.test(n)).map((n) => path.join(parent, n));
  } catch {
    return [];
  }
}

/**
 * `member` (a folder of java.base, e.g. "java.base" or "java.base/java/util") of the JDK's
 * src.zip, unpacked once under the temp dir in `outName` (needs `unzip`); none without a JDK.
 */
export function jdkSources(member: string, outName: string): string[] {
  const zip = childPaths("/usr/lib/jvm", /./)
    .flatMap((d) => [path.join(d, "lib/src.zip"), path.join(d, "src.zip")])
    .find(existsSync);
  if (!zip) return [];
  const out = path.join(tmpdir(), outName);
  const folder = path.join(out, member);
  if (!existsSync(folder)) {
    mkdirSync(out, { recursive: true });
    spawnSync("unzip", ["-q", "-o", zip, `${member}/*`, "-d", out], { stdio: "ignore" });
  }
  return existsSync(folder) ? [folder] : [];
}
