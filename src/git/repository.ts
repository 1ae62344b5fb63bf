// The git repository a diff runs in, and the revisions it compares. A revision the user gives
// never reaches git's command line: it is written to `git cat-file --batch-check` on its
// standard input, where nothing can be an option; it must also not start with "-" (so that
// it cannot be mistaken for one by a reader either) and be one line.
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { quote } from "../quote.js";
import { GitError } from "./git-error.js";
import { runGit } from "./run-git.js";

export interface Repository {
  /** Real path of the work tree's top folder. */
  root: string;
  /** Absolute path of its git directory. */
  gitDir: string;
}

export interface Revision {
  /** As the user wrote it. */
  given: string;
  commit: string;
  tree: string;
}

/** Longest revision accepted: no real one comes close. */
const MAX_REVISION_CHARS = 1000;

// speky:speky-ts#DIFF-COMMAND
/** The git work tree holding `dir`; a GitError outside one. */
export async function findRepository(dir: string): Promise<Repository> {
  const result = await runGit(dir, ["rev-parse", "--show-toplevel", "--absolute-git-dir"]);
  if (!result.ok) {
    if (result.reason.startsWith("git is not installed")) throw new GitError(`${result.reason}: speky diff compares git revisions`);
    throw new GitError(`${quote(dir)} is not inside a git work tree (${result.reason}); speky diff compares git revisions`);
  }
  const [top, gitDir] = result.stdout.toString("utf8").split("\n");
  if (!top || !gitDir) throw new GitError(`${quote(dir)} is not inside a git work tree (a bare repository?)`);
  let root = top;
  try {
    root = realpathSync(top);
  } catch {
    // git's own answer is used as it is.
  }
  return { root, gitDir: path.resolve(gitDir) };
}

/** Why `given` cannot be a revision, before asking git; null when it may be one. */
export function revisionProblem(given: string): string | null {
  if (given.length === 0) return "an empty revision";
  if (given.length > MAX_REVISION_CHARS) return `${quote(given)} is longer than ${MAX_REVISION_CHARS} characters`;
  if (given.startsWith("-")) return `${quote(given)} is not a revision (it starts with '-'; options go after the command)`;
  if (/[\u0000-\u001f\u007f]/.test(given)) return `${quote(given)} is not a revision (it holds a control character)`;
  return null;
}

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The commit and tree each of `given` names, asked of git in one call from `dir` (any folder of
 * the work tree: this runs beside findRepository). The answer is read once the repository is
 * known (outside git, that is the message to give): a GitError for the first that names none.
 */
export async function resolveRevisions(dir: string, given: readonly string[]): Promise<(repo: Repository) => Revision[]> {
  for (const g of given) {
    const problem = revisionProblem(g);
    if (problem !== null) throw new GitError(problem);
  }
  const input = given.map((g) => `${g}^{commit}\n${g}^{tree}\n`).join("");
  const result = await runGit(dir, ["cat-file", "--batch-check"], { input });
  const lines = result.ok ? result.stdout.toString("utf8").split("\n") : [];
  return (repo) => {
    if (!result.ok) throw new GitError(`cannot resolve ${quote(given[0])}: ${result.reason}`);
    return given.map((g, i) => {
      const commit = /^(\S+) commit \d+$/.exec(lines[2 * i] ?? "")?.[1];
      const tree = /^(\S+) tree \d+$/.exec(lines[2 * i + 1] ?? "")?.[1];
      if (commit && tree && OID.test(commit) && OID.test(tree)) return { given: g, commit, tree };
      const why = lines[2 * i]?.endsWith(" ambiguous") ? "it is ambiguous" : "no commit of this repository has that name";
      // A CI checkout is often shallow, with the base branch not fetched.
      const shallow = existsSync(path.join(repo.gitDir, "shallow"))
        ? " (this clone is shallow: fetch the base first, e.g. git fetch origin main)"
        : "";
      throw new GitError(`${quote(g)} is not a revision: ${why}${shallow}`);
    });
  };
}
