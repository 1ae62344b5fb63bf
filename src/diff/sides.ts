// One side of a diff: the model loaded and scanned from a tree (the working tree, or a
// revision's snapshot), and what the comparison needs of that tree: where each code reference's
// file is in the repository, and the file's text.

import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { realOrResolved, toPosix } from "../fs/paths.js";
import { isRefusal, readRegularSync } from "../fs/safe-read.js";
import type { Unwritten } from "../git/blobs.js";
import { GitError } from "../git/git-error.js";
import type { Repository, Revision } from "../git/repository.js";
import { MAX_SNAPSHOT_FILE_BYTES, openSnapshot } from "../git/snapshot.js";
import { loadModel, type ModelOptions, type ModelResult } from "../model/load-model.js";
import { buildModel, type Model } from "../model/model.js";
import { quote } from "../quote.js";
import type { CodeReference } from "../scan/types.js";
import { readSide, sideKey, writeSide } from "./side-cache.js";

export interface Side {
  /** The revision as given, or "working tree". */
  label: string;
  revision: Revision | null;
  /** The folder on disk holding this side's repository top (the work tree, or a snapshot). */
  root: string;
  result: ModelResult;
  /** None of the command line's paths is on this side (the pull request that adopts speky): an empty model. */
  empty: boolean;
  /** The command line's paths (as given) this side does not have: loaded without them (a project added or deleted). */
  missing: string[];
  /** The path of a file of this side from the repository's top; null outside it. */
  repoPath(abs: string): string | null;
  /** The file of a code reference, `/`-separated from the repository's top; null outside it. */
  fileOf(ref: CodeReference): string | null;
  /** The bytes of a repository file on this side; null when it is not there (or not readable). */
  bytes(file: string): Buffer | null;
  /** Its text (UTF-8). */
  text(file: string): string | null;
  /** Whether the repository holds `file` on this side. */
  has(file: string): boolean;
  /** Files of a revision that could not be written into its snapshot (links no file system takes). */
  unwritten: readonly Unwritten[];
  release(): void;
}

export const WORKING_TREE = "working tree";

export interface SideRequest {
  repo: Repository;
  /** The folder the command line's paths are relative to. */
  cwd: string;
  paths: readonly string[];
  options: ModelOptions;
}

/** The path from the repository's top, or null when `abs` is outside it. */
function inRepository(root: string, abs: string): string | null {
  const rel = path.relative(root, abs);
  if (rel === "" || rel.startsWith(`..${path.sep}`) || rel === ".." || path.isAbsolute(rel)) return null;
  return toPosix(rel);
}

/** The repository path of a command-line path; a GitError when it is outside the work tree. */
function repositoryPath(request: SideRequest, given: string): string {
  const abs = realOrResolved(path.resolve(request.cwd, given));
  const rel = inRepository(request.repo.root, abs);
  if (rel === null) throw new GitError(`${quote(given)} is outside the git work tree of ${quote(request.repo.root)}`);
  return rel;
}

function makeFileOf(model: Model | null, sideRoot: string): (ref: CodeReference) => string | null {
  const roots = new Map<string, string>();
  for (const m of model?.manifests ?? []) {
    const key = m.name.toLowerCase();
    if (!roots.has(key)) roots.set(key, realOrResolved(m.root));
  }
  const known = new Map<string, string | null>();
  return (ref) => {
    const root = roots.get(ref.project.toLowerCase());
    if (root === undefined) return null;
    const key = `${root}\0${ref.file}`;
    let found = known.get(key);
    if (found === undefined) known.set(key, (found = inRepository(sideRoot, path.resolve(root, ref.file))));
    return found;
  };
}

// speky:speky-ts#DIFF-ADOPTION
/** The model of a side without specification: nothing, so that everything of the other side is added or removed. */
function emptyResult(): ModelResult {
  const specs = { requirements: [], tests: [], comments: [], manifests: [], files: [], warnings: [] };
  return {
    model: buildModel(specs, { references: [], diagnostics: [], stats: { files: 0, files_with_tags: 0, tags: 0, ms: 0 } }),
    diagnostics: [],
  };
}

/** Which of the paths (each absolute, or relative to `cwd`) are not there. */
function absent(paths: readonly string[], cwd: string): Set<string> {
  return new Set(paths.filter((p) => !existsSync(path.resolve(cwd, p))));
}

function repoPathIn(root: string): (abs: string) => string | null {
  return (abs) => inRepository(root, realOrResolved(abs));
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

function readBytes(abs: string): Buffer | null {
  const read = readRegularSync(abs, { maxBytes: MAX_SNAPSHOT_FILE_BYTES });
  return isRefusal(read) ? null : read.bytes;
}

/** A tree's files by repository path: the work tree's, or a snapshot's (which holds exactly its revision's files). */
function filesUnder(root: string): Pick<Side, "bytes" | "text" | "has"> {
  const at = (file: string) => path.join(root, ...file.split("/"));
  return {
    bytes: (file) => readBytes(at(file)),
    text: (file) => readBytes(at(file))?.toString("utf8") ?? null,
    has: (file) => isFile(at(file)),
  };
}

// speky:speky-ts#DIFF-COMMAND
/** The working tree's side; `loaded` when the caller has its model already (report, MCP server). */
export async function workingTreeSide(request: SideRequest, loaded?: ModelResult): Promise<Side> {
  for (const p of request.paths) repositoryPath(request, p);
  const gone = loaded ? new Set<string>() : absent(request.paths, request.cwd);
  const present = request.paths.filter((p) => !gone.has(p));
  const empty = request.paths.length > 0 && present.length === 0;
  const result = empty ? emptyResult() : (loaded ?? (await loadModel(present, { ...request.options, cwd: request.cwd })));
  const root = request.repo.root;
  return {
    label: WORKING_TREE,
    revision: null,
    root,
    result,
    empty,
    missing: [...gone],
    repoPath: repoPathIn(root),
    fileOf: makeFileOf(result.model, root),
    ...filesUnder(root),
    unwritten: [],
    release: () => undefined,
  };
}

// speky:speky-ts#DIFF-SNAPSHOT
/** A revision's side: its snapshot, loaded with the command line's paths mapped into it. */
export async function revisionSide(request: SideRequest, revision: Revision): Promise<Side> {
  const mapped = request.paths.map((p) => ({ given: p, rel: repositoryPath(request, p) }));
  const csvs = (request.options.csvs ?? []).map((p) => ({ given: p, rel: repositoryPath(request, p) }));
  const snapshot = await openSnapshot(request.repo, revision);
  try {
    const root = snapshot.root;
    const cwdRel = realOrResolved(request.cwd) === request.repo.root ? "" : inRepository(request.repo.root, realOrResolved(request.cwd));
    // Relative paths stay as written (and are shown so) from the same folder of the snapshot,
    // when the revision has that folder; else they are given as absolute paths in it.
    const mappedCwd = cwdRel === null ? root : path.join(root, ...cwdRel.split("/").filter(Boolean));
    const inside = cwdRel !== null && existsSync(mappedCwd);
    const cwd = inside ? mappedCwd : root;
    const place = (p: { given: string; rel: string }) =>
      inside && !path.isAbsolute(p.given) ? p.given : path.join(root, ...p.rel.split("/"));
    const gone = absent(mapped.map(place), cwd);
    const missing = mapped.filter((p) => gone.has(place(p))).map((p) => p.given);
    const paths = mapped.map(place).filter((p) => !gone.has(p));
    const options = { ...request.options, cwd, csvs: csvs.map(place) };
    // A snapshot does not change while its slot holds the tree: its loaded side is kept there.
    const keep = request.options.cache !== false;
    const key = sideKey(revision.tree, {
      paths,
      cwd,
      csvs: options.csvs,
      outside: options.allowOutside === true,
      ignore: options.ignore !== false,
    });
    const slot = path.dirname(root);
    const empty = mapped.length > 0 && paths.length === 0;
    const kept = keep && !empty ? readSide(slot, key) : null;
    const result = empty ? emptyResult() : (kept ?? (await loadModel(paths, options)));
    if (keep && kept === null && !empty) {
      try {
        writeSide(slot, key, result);
      } catch {
        // Not kept (a full disk): the next run loads it again.
      }
    }
    return {
      label: revision.given,
      revision,
      root,
      result,
      empty,
      missing,
      repoPath: repoPathIn(root),
      fileOf: makeFileOf(result.model, root),
      ...filesUnder(root),
      unwritten: snapshot.unwritten,
      release: () => snapshot.release(),
    };
  } catch (error) {
    snapshot.release();
    throw error;
  }
}
