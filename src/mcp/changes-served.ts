// `changes_since(base)` of the MCP server: the diff of BASE against the working tree the server
// serves. The head side is the served model itself (nothing loaded twice); the base side is
// loaded from the same command-line paths, recovered from the model: its top-level manifests
// and the spec files given directly (their items belong to no project).
import path from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { computeChanges } from "../diff/changes.js";
import { type Changes, SECTIONS } from "../diff/shapes.js";
import { GitError } from "../git/git-error.js";
import type { Model } from "../model/model.js";
import { MAX_PAGE_CHARS } from "./answers/paging.js";

/** The paths the served model was loaded from, as absolute paths, in load order. */
export function servedPaths(model: Model, cwd: string): string[] {
  const paths = new Set<string>();
  for (const m of model.manifests) if (m.parent === null) paths.add(m.absFile);
  for (const item of [...model.specs.requirements, ...model.specs.tests]) {
    if (item.project === null) paths.add(path.resolve(cwd, item.source_file));
  }
  return [...paths];
}

/** Whether the served model was loaded with --allow-outside (its manifests have no boundary). */
export function servedOutside(model: Model): boolean {
  return model.manifests.length > 0 && model.manifests.every((m) => m.boundary === null);
}

/** Every list of a diff, in the document's order, with a way to cut it. */
function lists(c: Changes): { list: unknown[]; cut(n: number): void }[] {
  const out: { list: unknown[]; cut(n: number): void }[] = [];
  const add = (holder: Record<string, unknown[]>, key: string) =>
    out.push({ list: holder[key], cut: (n) => (holder[key] = holder[key].slice(0, n)) });
  // The warnings first: a tree of many refused links must not make the answer unbounded either.
  for (const key of Object.keys(c.warnings ?? {})) add(c.warnings as Record<string, unknown[]>, key);
  for (const section of SECTIONS) {
    const value = c[section];
    if (value === undefined) continue;
    if (Array.isArray(value)) add(c as unknown as Record<string, unknown[]>, section);
    else for (const key of Object.keys(value)) add(value as unknown as Record<string, unknown[]>, key);
  }
  return out;
}

// speky:speky-ts#DIFF-MCP
/**
 * The diff cut to at most `maxChars` characters of list items, in the document's order (the
 * first lists kept whole): `truncated` says that it was. An MCP answer stays bounded whatever
 * the change.
 */
export function bounded(c: Changes, maxChars: number): Changes & { truncated?: true } {
  let budget = maxChars;
  let cut = false;
  for (const { list, cut: keep } of lists(c)) {
    let n = 0;
    while (n < list.length) {
      const size = JSON.stringify(list[n]).length + 1;
      if (size > budget) break;
      budget -= size;
      n++;
    }
    if (n < list.length) {
      keep(n);
      cut = true;
      budget = 0;
    }
  }
  return cut ? { ...c, truncated: true } : c;
}

/** The calls so far: one diff at a time, so that two calls share one snapshot instead of writing two. */
let queue: Promise<unknown> = Promise.resolve();

/** The diff of `base` against the served model, bounded; or the reason there is none (not a revision, no git). */
export function changesSinceServed(
  model: Model,
  problems: readonly Diagnostic[],
  base: string,
  cwd = process.cwd(),
): Promise<{ changes: Changes & { truncated?: true } } | { error: string }> {
  const answer = queue.then(() => diffServed(model, problems, base, cwd));
  queue = answer.catch(() => undefined);
  return answer;
}

async function diffServed(
  model: Model,
  problems: readonly Diagnostic[],
  base: string,
  cwd: string,
): Promise<{ changes: Changes & { truncated?: true } } | { error: string }> {
  try {
    const { changes } = await computeChanges({
      cwd,
      base,
      paths: servedPaths(model, cwd),
      options: { allowOutside: servedOutside(model), cache: true },
      headModel: { model, diagnostics: [...problems] },
    });
    return { changes: bounded(changes, MAX_PAGE_CHARS) };
  } catch (error) {
    if (error instanceof GitError) return { error: error.message };
    throw error;
  }
}
