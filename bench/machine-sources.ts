// Where this machine keeps real code to parse: shared by the grammar bench and the test that
// runs every grammar on real files, so that both look in the same places.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The entries of `parent` whose names match, as paths; none when it cannot be read. */
export function childPaths(parent: string, pattern: RegExp): string[] {
  try {
    return readdirSync(parent)
      .filter((n) => pattern.test(n))
      .map((n) => path.join(parent, n));
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

export interface CollectOptions {
  /** Folder levels below each root that are still entered. */
  maxDepth: number;
  /** Files larger than this are left out (as are empty ones). */
  maxBytes: number;
  /** Languages to keep; all when absent. */
  only?: ReadonlySet<string> | null;
}

/**
 * Source files under `roots` by language (of `languageOf`), in sorted order, each once;
 * symbolic links are not followed and `.git` is never entered.
 */
export function filesByLanguage(
  roots: readonly string[],
  languageOf: (file: string) => string | null,
  options: CollectOptions,
): Map<string, string[]> {
  const byLanguage = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name === ".git") continue;
      const full = path.join(dir, name);
      const st = lstatSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) {
        if (depth < options.maxDepth) visit(full, depth + 1);
      } else if (st.isFile() && st.size > 0 && st.size <= options.maxBytes && !seen.has(full)) {
        const language = languageOf(full);
        if (!language || (options.only && !options.only.has(language))) continue;
        seen.add(full);
        let list = byLanguage.get(language);
        if (!list) byLanguage.set(language, (list = []));
        list.push(full);
      }
    }
  };
  for (const root of roots) visit(root, 0);
  return byLanguage;
}
