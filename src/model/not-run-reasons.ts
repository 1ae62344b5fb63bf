// Why a tagged test did not run, when the results can tell (verification.md, "Why not run"):
// the results are older than the test's file, no results file names the test's file, or one
// counts errors none of its testcases holds (gotestsum leaves out a package that failed to build).
import { statSync } from "node:fs";
import path from "node:path";
import type { ResultsFile, Testcase } from "../results/types.js";
import type { CodeReference } from "../scan/types.js";

/** A file's modification time in ms, undefined when unknown (the model's own paths: src/model/paths.ts). */
export type FileTime = (ref: CodeReference) => number | undefined;

/** What names a file in a results file's testcases: the stems of their file fields and the parts of their classnames. */
function namesOf(testcases: readonly Testcase[], count: number): Set<string>[] {
  const names = Array.from({ length: count }, () => new Set<string>());
  const stem = (p: string) => path.posix.basename(p.replace(/\\/g, "/")).replace(/\.[^.]*$/, "");
  for (const t of testcases) {
    const set = names[t.source];
    if (t.file) set.add(stem(t.file));
    if (t.suiteFile) set.add(stem(t.suiteFile));
    for (const part of t.classname.split(/[./\\:$]+/)) if (part !== "") set.add(part);
    set.add(stem(t.classname));
  }
  return names;
}

/** How long after a run a test's file must have changed to call the run older (a checkout's spread). */
const CHECKOUT_MS = 60_000;

export class NotRunReasons {
  private names: Set<string>[] | null = null;

  constructor(
    private readonly files: readonly ResultsFile[],
    private readonly testcases: readonly Testcase[],
    private readonly fileTime: FileTime | undefined,
    /** The languages of the tagged tests each results file's testcases matched. */
    private readonly languages: readonly ReadonlySet<string>[],
  ) {}

  // speky:speky-ts#RESULTS-NOT-RUN-WHY
  /** Why `ref` matched no testcase, or undefined when the results cannot tell. */
  reason(ref: CodeReference): string | undefined {
    if (this.files.length === 0) return undefined;
    this.names ??= namesOf(this.testcases, this.files.length);
    const stem = path.posix.basename(ref.file).replace(/\.[^.]*$/, "");
    const folder = path.posix.basename(path.posix.dirname(ref.file));
    const naming = this.files.filter((_, i) => this.names![i].has(stem) || (folder !== "." && this.names![i].has(folder)));
    if (naming.length === 0) {
      // A file of this language's runner (it matched tests of it) that counts errors no testcase holds.
      const unlisted = this.files.find((f, i) => (f.unlistedErrors ?? 0) > 0 && this.languages[i]?.has(ref.language));
      if (!unlisted) return `no results file names ${ref.file}`;
      const errors = unlisted.unlistedErrors === 1 ? "1 error" : `${unlisted.unlistedErrors} errors`;
      return `no results file names ${ref.file}; ${unlisted.file} counts ${errors} that no testcase holds: did its package fail to build?`;
    }
    // The runs that read this file: older than its last change, they could not run this test.
    // Both the run's time and the results file's own must be older, by more than a checkout
    // takes: a fresh clone gives committed results and the tests the same modification time.
    const ran = (f: ResultsFile) => Math.max(Date.parse(f.timestamp) || 0, f.mtimeMs ?? 0);
    const latest = Math.max(...naming.map(ran));
    const changed = this.fileTime?.(ref);
    if (changed !== undefined && latest > 0 && changed > latest + CHECKOUT_MS) {
      return `results older than ${ref.file}: it changed after the run that read it`;
    }
    return undefined;
  }
}

/** Modification times of the tagged files, each file stat'ed once, from the roots of its project. */
export function fileTimes(roots: ReadonlyMap<string, string>): FileTime {
  const known = new Map<string, number | undefined>();
  return (ref) => {
    const root = roots.get(ref.project.toLowerCase());
    if (root === undefined) return undefined;
    const abs = path.resolve(root, ref.file);
    if (!known.has(abs)) known.set(abs, statSync(abs, { throwIfNoEntry: false })?.mtimeMs);
    return known.get(abs);
  };
}
