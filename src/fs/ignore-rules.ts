// .gitignore and .ignore rules for code sources inside a git work tree, as ripgrep applies
// them: each folder's files rule the paths below it, a deeper rule (or `!negation`) wins over a
// shallower one, and .git/info/exclude rules the whole work tree. Each rule is read as
// gitignore(5) says and matched by wildmatch/wildcard.ts, in time bounded by name × rule: the
// `ignore` package's regular expressions took minutes for `a/**/a/**/…` over a deep tree (issue 25).
import path from "node:path";
import { gitWorkTree } from "./boundary.js";
import { isRefusal, readRegularSync } from "./safe-read.js";
import { compileWildcard } from "./wildmatch/wildcard.js";

interface Rule {
  negated: boolean;
  dirOnly: boolean;
  /** Matched against the last part of the path only (a rule without a `/` but a final one). */
  basename: boolean;
  match: (rel: string) => boolean;
}

/** What the rules of one folder say of a path: the last rule matching it decides. */
interface Verdict {
  ignored: boolean;
  unignored: boolean;
}

const NONE: Verdict = { ignored: false, unignored: false };
const IGNORED: Verdict = { ignored: true, unignored: false };
const UNIGNORED: Verdict = { ignored: false, unignored: true };

/** One line of an ignore file as gitignore(5) reads it; null for blanks, comments and refused rules. */
function parseRule(line: string): Rule | null {
  let text = line;
  // Trailing spaces go, unless escaped with a backslash.
  let end = text.length;
  while (end > 0 && text[end - 1] === " " && text[end - 2] !== "\\") end--;
  text = text.slice(0, end);
  if (text === "" || text.startsWith("#")) return null;
  let negated = false;
  if (text.startsWith("!")) {
    negated = true;
    text = text.slice(1);
  }
  let dirOnly = false;
  if (text.endsWith("/") && !text.endsWith("\\/")) {
    dirOnly = true;
    // One slash only, as git: `a//` is left `a/`, which no path matches.
    text = text.slice(0, -1);
  }
  if (text === "") return null;
  const basename = !text.includes("/");
  if (text.startsWith("/")) text = text.slice(1);
  const wildcard = compileWildcard(text, { braces: false, gitPrefix: !basename });
  // A rule past the length bound matches nothing (no real path part is that long).
  if ("refused" in wildcard) return null;
  return { negated, dirOnly, basename, match: wildcard.match };
}

/** The rules of one or more ignore files of a folder, in order. */
class Rules {
  private readonly rules: Rule[] = [];

  add(text: string): void {
    for (const line of text.split(/\r?\n/)) {
      const rule = parseRule(line);
      if (rule) this.rules.push(rule);
    }
  }

  /** `rel`: `/`-separated, relative to the rules' folder, without a trailing `/`. */
  test(rel: string, isDir: boolean): Verdict {
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i];
      if (rule.dirOnly && !isDir) continue;
      if (rule.match(rule.basename ? name : rel)) return rule.negated ? UNIGNORED : IGNORED;
    }
    return NONE;
  }
}

/** An ignore file larger than this is not read (no real one comes close). */
const MAX_IGNORE_BYTES = 1024 * 1024;
const FILES = [".gitignore", ".ignore"];

interface Level {
  /** The folder whose rules these are, as a walk location (see IgnoreStack). */
  dir: string;
  rules: Rules;
}

/** Stamps of the ignore files read: a change to one must invalidate a cached walk. */
export type OnRuleFile = (file: string) => void;

function rulesIn(dir: string, names: string[], onFile?: OnRuleFile): Rules | null {
  let rules: Rules | null = null;
  for (const name of names) {
    const file = path.join(dir, name);
    const read = readRegularSync(file, { maxBytes: MAX_IGNORE_BYTES });
    if (isRefusal(read)) continue;
    onFile?.(file);
    rules ??= new Rules();
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
  /** `excluded`: the walk starts inside an excluded folder, so everything in it is excluded. */
  private constructor(
    private readonly levels: readonly Level[],
    private readonly excluded = false,
  ) {}

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
    // A folder excluded between the work tree and the start excludes the whole walk (git
    // cannot re-include what is under an excluded folder); the walk checks the folders below.
    const stack = new IgnoreStack(levels);
    return chain.slice(1).some((dir) => stack.ignores(dir, true)) ? new IgnoreStack(levels, true) : stack;
  }

  /** The stack inside folder `loc` (its own ignore files read from `realDir`). */
  enter(loc: string, realDir: string, onFile?: OnRuleFile): IgnoreStack {
    const rules = rulesIn(realDir, FILES, onFile);
    return rules && !this.excluded ? new IgnoreStack([...this.levels, { dir: loc, rules }]) : this;
  }

  /** Whether the entry at walk location `loc` is excluded (the deepest deciding rule wins). */
  ignores(loc: string, isDir: boolean): boolean {
    if (this.excluded) return true;
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i];
      if (loc.length <= level.dir.length || !loc.startsWith(level.dir) || loc[level.dir.length] !== path.sep) continue;
      const rel =
        path.sep === "/"
          ? loc.slice(level.dir.length + 1)
          : loc
              .slice(level.dir.length + 1)
              .split(path.sep)
              .join("/");
      const verdict = level.rules.test(rel, isDir);
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
