// .gitignore and .ignore rules for code sources inside a git work tree, as ripgrep applies
// them: each folder's files rule the paths below it, a deeper rule (or `!negation`) wins over a
// shallower one, and .git/info/exclude rules the whole work tree. The `ignore` package reads
// the rules; this file only stacks them by folder.
import { createRequire } from "node:module";
import path from "node:path";
import type { Ignore } from "ignore";
import { gitWorkTree } from "./boundary.js";
import { isRefusal, readRegularSync } from "./safe-read.js";

// speky:speky-ts#CHECK-LAZY-MODULES
/**
 * `ignore` is loaded on the first ignore file read, with require: importing its 50 KB of
 * CommonJS from ESM costs every `speky check` a lexing pass, even outside git.
 */
let ignoreFactory: typeof import("ignore") | undefined;
function newRules(): Ignore {
  ignoreFactory ??= createRequire(import.meta.url)("ignore") as typeof import("ignore");
  return ignoreFactory();
}

/** An ignore file larger than this is not read (no real one comes close). */
const MAX_IGNORE_BYTES = 1024 * 1024;
const FILES = [".gitignore", ".ignore"];

interface Level {
  /** The folder whose rules these are, as a walk location (see IgnoreStack). */
  dir: string;
  rules: Ignore;
}

/** Stamps of the ignore files read: a change to one must invalidate a cached walk. */
export type OnRuleFile = (file: string) => void;

function rulesIn(dir: string, names: string[], onFile?: OnRuleFile): Ignore | null {
  let rules: Ignore | null = null;
  for (const name of names) {
    const file = path.join(dir, name);
    const read = readRegularSync(file, { maxBytes: MAX_IGNORE_BYTES });
    if (isRefusal(read)) continue;
    onFile?.(file);
    rules ??= newRules();
    rules.add(read.bytes.toString("utf8"));
  }
  return rules;
}

// speky:speky-ts#WALK-IGNORE
/**
 * The rules in force at one folder of a walk. Locations are paths as the walk spells them,
 * anchored at the real path of its start, so a rule's relative path is a plain slice.
 */
export class IgnoreStack {
  private constructor(private readonly levels: readonly Level[]) {}

  /** The rules of the folders from the git work tree down to `startReal`; null outside git. */
  static at(startReal: string, onFile?: OnRuleFile): IgnoreStack | null {
    const top = gitWorkTree(startReal);
    if (top === null) return null;
    const levels: Level[] = [];
    const exclude = rulesIn(path.join(top, ".git", "info"), ["exclude"], onFile);
    if (exclude) levels.push({ dir: top, rules: exclude });
    const chain: string[] = [];
    for (let d = startReal; d !== top; d = path.dirname(d)) chain.unshift(d);
    chain.unshift(top);
    // The start's own files are read when the walk enters it (enter()).
    for (const dir of chain.slice(0, -1)) {
      const rules = rulesIn(dir, FILES, onFile);
      if (rules) levels.push({ dir, rules });
    }
    return new IgnoreStack(levels);
  }

  /** The stack inside folder `loc` (its own ignore files read from `realDir`). */
  enter(loc: string, realDir: string, onFile?: OnRuleFile): IgnoreStack {
    const rules = rulesIn(realDir, FILES, onFile);
    return rules ? new IgnoreStack([...this.levels, { dir: loc, rules }]) : this;
  }

  /** Whether the entry at walk location `loc` is excluded (the deepest deciding rule wins). */
  ignores(loc: string, isDir: boolean): boolean {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i];
      if (loc.length <= level.dir.length || !loc.startsWith(level.dir) || loc[level.dir.length] !== path.sep) continue;
      const rel = loc
        .slice(level.dir.length + 1)
        .split(path.sep)
        .join("/");
      const verdict = level.rules.test(isDir ? `${rel}/` : rel);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}

/** Whether one file (a real path) is excluded by the rules of its git work tree, or under an excluded folder. */
export function isIgnoredFile(real: string): boolean {
  const dir = path.dirname(real);
  const top = gitWorkTree(dir);
  if (top === null) return false;
  let stack = IgnoreStack.at(top);
  if (stack === null) return false;
  const chain: string[] = [];
  for (let d = dir; d !== top; d = path.dirname(d)) chain.unshift(d);
  stack = stack.enter(top, top);
  for (const d of chain) {
    if (path.basename(d) === ".git" || stack.ignores(d, true)) return true;
    stack = stack.enter(d, d);
  }
  return stack.ignores(real, false);
}
