// `speky diff` in one function: both sides loaded and scanned (a revision from its snapshot, the
// working tree as it is), then compared: the specification, the code references, coverage,
// impact, and what follows from them: suspect links and the tests to rerun.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { compareStrings, type Diagnostic } from "../diagnostics.js";
import { GitError } from "../git/git-error.js";
import { findRepository, type Repository, type Revision, resolveRevisions } from "../git/repository.js";
import type { Manifest } from "../loader/types.js";
import { loadModel, type ModelOptions, type ModelResult } from "../model/load-model.js";
import type { Model } from "../model/model.js";
import { quote } from "../quote.js";
import type { CodeReference } from "../scan/types.js";
import { compareCode, type LinkOf } from "./code-changes.js";
import { manifestChanges } from "./manifest-changes.js";
import { automatedIds, type Changes, compareRefs, type ImpactEntry, type Problem, problem, refShape, type SuspectEntry } from "./shapes.js";
import { revisionSide, type Side, type SideRequest, WORKING_TREE, workingTreeSide } from "./sides.js";
import { coverageChanges, requirementChanges, rewordedRequirements, testChanges } from "./spec-changes.js";

export interface DiffRequest {
  /** The folder relative paths are relative to. */
  cwd: string;
  base: string;
  /** A revision; undefined: the working tree. */
  head?: string;
  /** Manifests or spec files, as for `speky check`. */
  paths: readonly string[];
  options: ModelOptions;
  /** The working tree's model, when the caller has loaded it already (the report, the MCP server). */
  headModel?: ModelResult;
}

export interface DiffOutcome {
  changes: Changes;
  /** Whether both sides loaded (else the sections are left out and the command exits 1). */
  compared: boolean;
  /** The head side's model, when it loaded. */
  head: Model | null;
  /** The base side's model, when it loaded (the report shows its texts beside the head's). */
  base: Model | null;
}

/** The deepest existing folder at or above `p`: where git is asked for the work tree. */
function existingFolder(p: string): string {
  for (let d = p; ; d = path.dirname(d)) {
    try {
      if (statSync(d).isDirectory()) return d;
    } catch {
      // not there: its parent
    }
    if (d === path.dirname(d)) return d;
  }
}

function loadWorkingTree(request: DiffRequest): Promise<ModelResult> {
  return loadModel([...request.paths], { ...request.options, cwd: request.cwd });
}

/** A revision side's links point at its commit (the scan's point at the configured branch). */
function commitLinks(side: Side): LinkOf {
  const revision = side.revision;
  const model = side.result.model;
  if (revision === null || model === null) return (ref) => ref.url;
  const byProject = new Map<string, Manifest>();
  for (const m of model.manifests) if (m.source_links && !byProject.has(m.name.toLowerCase())) byProject.set(m.name.toLowerCase(), m);
  return (ref: CodeReference) => {
    const links = byProject.get(ref.project.toLowerCase())?.source_links;
    const file = side.fileOf(ref);
    if (!links || ref.url === undefined || file === null) return ref.url;
    return `${links.url}/blob/${revision.commit}/${file}#L${ref.line}`;
  };
}

/** A load error as the user knows the file: a snapshot's path shown as the work tree's. */
function loadErrors(side: Side, repo: Repository, diagnostics: readonly Diagnostic[]) {
  const prefix = side.root + path.sep;
  return diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => problem(d.file.startsWith(prefix) ? { ...d, file: path.join(repo.root, d.file.slice(prefix.length)) } : d));
}

/** A revision's files left out of its snapshot, each a warning at its file (issue 48): the comparison goes on. */
function unwrittenWarnings(side: Side): Problem[] {
  return side.unwritten.map((u) => ({ file: u.path, line: 0, column: 0, severity: "warning" as const, message: u.reason }));
}

// speky:speky-ts#DIFF-SUSPECT-RERUN
/** Requirements whose words changed while none of their tagged definitions is in impact. */
function suspects(reworded: readonly string[], impact: readonly ImpactEntry[], side: Side, links: LinkOf): SuspectEntry[] {
  const head = side.result.model!;
  const touched = new Set(impact.flatMap((e) => e.ids));
  return reworded
    .filter((id) => !touched.has(id))
    .sort(compareStrings)
    .map((id) => ({
      id,
      project: head.byId.get(id)?.project ?? null,
      code: (head.codeReferencesById.get(id) ?? [])
        .filter((r) => r.symbol !== null)
        .map((r) => refShape(r, side.fileOf(r), links(r)))
        .sort(compareRefs),
    }));
}

/** Tests of the head with an automated reference in impact, or validating an impacted or suspect requirement. */
function reruns(impact: readonly ImpactEntry[], suspect: readonly SuspectEntry[], head: Model): string[] {
  const automated = new Set(impact.flatMap(automatedIds));
  const requirements = new Set([...impact.flatMap((e) => e.ids), ...suspect.map((s) => s.id)]);
  return head.testIds.filter(
    (id) =>
      automated.has(id) || (head.byId.get(id)?.ref ?? []).some((r) => requirements.has(r) && head.byId.get(r)?.kind === "requirement"),
  );
}

async function compare(base: Side, head: Side, changes: Changes): Promise<void> {
  const before = base.result.model!;
  const after = head.result.model!;
  const links: [LinkOf, LinkOf] = [commitLinks(base), commitLinks(head)];
  const requirements = requirementChanges(before, after);
  const code = compareCode(base, head, links);
  const suspect = suspects(rewordedRequirements(requirements), code.impact, head, links[1]);
  changes.manifests = await manifestChanges(base, head);
  changes.requirements = requirements;
  changes.tests = testChanges(before, after);
  changes.code_references = { added: code.added, removed: code.removed, moved: code.moved };
  changes.coverage = coverageChanges(before, after);
  changes.impact = code.impact;
  changes.suspect = suspect;
  changes.rerun = reruns(code.impact, suspect, after);
}

async function openSides(request: SideRequest, base: Revision, head: Revision | null, headModel?: ModelResult): Promise<[Side, Side]> {
  if (head !== null && head.tree === base.tree) {
    // The same files: loaded once, from one snapshot.
    const side = await revisionSide(request, base);
    return [side, { ...side, label: head.given, revision: head, release: () => undefined }];
  }
  const opened = await Promise.allSettled([
    revisionSide(request, base),
    head === null ? workingTreeSide(request, headModel) : revisionSide(request, head),
  ]);
  const failed = opened.find((o) => o.status === "rejected");
  if (failed) {
    for (const o of opened) if (o.status === "fulfilled") o.value.release();
    throw (failed as PromiseRejectedResult).reason;
  }
  return [(opened[0] as PromiseFulfilledResult<Side>).value, (opened[1] as PromiseFulfilledResult<Side>).value];
}

// speky:speky-ts#DIFF-COMMAND
export async function computeChanges(request: DiffRequest): Promise<DiffOutcome> {
  const first = path.resolve(request.cwd, request.paths[0] ?? ".");
  const dir = existingFolder(existsSync(first) && !statSync(first).isDirectory() ? path.dirname(first) : first);
  const given = request.head === undefined ? [request.base] : [request.base, request.head];
  // The working tree's side needs no revision: it loads while git is asked about them.
  // (Unless a path is missing: the side then loads without it, or is empty.)
  const allThere = request.paths.every((p) => existsSync(path.resolve(request.cwd, p)));
  const loading = request.head === undefined && !request.headModel && allThere ? loadWorkingTree(request) : undefined;
  loading?.catch(() => undefined);
  const [repo, revisions] = await Promise.all([findRepository(dir), resolveRevisions(dir, given)]);
  const [base, head = null] = revisions(repo);
  const sideRequest: SideRequest = { repo, cwd: request.cwd, paths: request.paths, options: request.options };
  const [before, after] = await openSides(sideRequest, base, head, request.headModel ?? (await loading));
  try {
    // A path neither side has is a mistake (a misspelt manifest), not a project added or deleted.
    const nowhere = before.missing.filter((p) => after.missing.includes(p));
    if (nowhere.length > 0) {
      throw new GitError(
        `${quote(nowhere[0])} is neither at ${quote(base.given)} nor ${head ? `at ${quote(head.given)}` : "in the working tree"}`,
      );
    }
    const changes: Changes = { base: base.given, base_commit: base.commit, head: head?.given ?? WORKING_TREE };
    if (head !== null) changes.head_commit = head.commit;
    // speky:speky-ts#DIFF-LINK-BLOBS
    const [baseWarnings, headWarnings] = [unwrittenWarnings(before), unwrittenWarnings(after)];
    if (baseWarnings.length + headWarnings.length > 0) {
      changes.warnings = {};
      if (baseWarnings.length > 0) changes.warnings.base = baseWarnings;
      if (headWarnings.length > 0) changes.warnings.head = headWarnings;
    }
    const absent = [before.empty ? "base" : null, after.empty ? "head" : null].filter((s) => s !== null);
    if (absent.length > 0) changes.without_specification = absent as ("base" | "head")[];
    const compared = before.result.model !== null && after.result.model !== null;
    if (!compared) {
      changes.load_errors = {};
      if (!before.result.model) changes.load_errors.base = loadErrors(before, repo, before.result.diagnostics);
      if (!after.result.model) changes.load_errors.head = loadErrors(after, repo, after.result.diagnostics);
    } else {
      await compare(before, after, changes);
    }
    return { changes, compared, head: after.result.model, base: before.result.model };
  } finally {
    before.release();
    after.release();
  }
}
