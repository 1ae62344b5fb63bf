// The absolute path of what a model's diagnostic is about, for commands that print paths
// relative to another folder than the manifest roots (src/text/shown-paths.ts). The model's own
// paths stay speky's.
import path from "node:path";
import { absolutePathOf, type Diagnostic } from "../diagnostics.js";
import { gitWorkTree } from "../fs/boundary.js";
import { realOrResolved } from "../fs/paths.js";
import type { Item } from "../loader/types.js";
import type { CodeReference } from "../scan/types.js";
import { relativeTo } from "../text/shown-paths.js";
import type { Model } from "./model.js";

/** Manifest roots by lower-cased project name (names match case-insensitively). */
export function projectRoots(model: Model): Map<string, string> {
  return new Map(model.manifests.map((m) => [m.name.toLowerCase(), m.root]));
}

/** A code reference's file: relative to the root of the manifest its tag names. */
export function referencePath(roots: ReadonlyMap<string, string>, ref: CodeReference): string | undefined {
  const root = roots.get(ref.project.toLowerCase());
  return root === undefined ? undefined : path.resolve(root, ref.file);
}

/** An item's file when a manifest reached it (a file given directly is shown as given). */
export function itemPath(roots: ReadonlyMap<string, string>, item: Item): string | undefined {
  const root = item.project === null ? undefined : roots.get(item.project.toLowerCase());
  return root === undefined ? undefined : path.resolve(root, item.source_file);
}

// speky:speky-ts#CLI-REPOSITORY-PATHS
/** Files from the repository root, for JSON: a code reference's, a diagnostic's (when located). */
export interface RepositoryPaths {
  reference(ref: CodeReference): string | undefined;
  diagnostic(d: Diagnostic): string | undefined;
}

/**
 * JSON for other tools names a file from the repository root (the git work tree holding the
 * working directory, else the working directory), wherever the command ran: beside speky's
 * `file`, relative to the root of the manifest the tag names, which a monorepo's projects share.
 */
export function repositoryPaths(model: Model, cwd: string): RepositoryPaths {
  const real = realOrResolved(cwd);
  const show = relativeTo(gitWorkTree(real) ?? real);
  const roots = projectRoots(model);
  // A file outside the repository (a tree trusted with --allow-outside) has no path from its root:
  // none is given, rather than one climbing out through the folders above it.
  // One realpath per file, however many of its tags and findings are shown.
  const byFile = new Map<string, string | undefined>();
  const shown = (abs: string | undefined) => {
    if (abs === undefined) return undefined;
    if (byFile.has(abs)) return byFile.get(abs);
    const rel = show(realOrResolved(abs));
    const kept = rel === ".." || rel.startsWith("../") ? undefined : rel;
    byFile.set(abs, kept);
    return kept;
  };
  return { reference: (ref) => shown(referencePath(roots, ref)), diagnostic: (d) => shown(absolutePathOf(d)) };
}
