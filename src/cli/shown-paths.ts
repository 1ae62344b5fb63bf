// Paths as the command line prints them. The model keeps speky's paths (relative to each
// manifest's root: MCP answers and scan JSON carry those); text and JSON findings name files
// relative to the working directory, GitHub annotations relative to the repository root, so
// that `speky check shop/speky.yaml` run at the top says `shop/specs/reqs.yaml:9:11`.

import path from "node:path";
import { absolutePathOf, type Diagnostic } from "../diagnostics.js";
import { gitWorkTree } from "../fs/boundary.js";
import { realOrResolved, toPosix } from "../fs/paths.js";
import type { Model } from "../model/model.js";
import { projectRoots, referencePath } from "../model/paths.js";
import type { CodeReference } from "../scan/types.js";

// speky:speky-ts#CLI-SHOWN-PATHS
/** Where GitHub resolves an annotation's file: GITHUB_WORKSPACE, else the git work tree, else cwd. */
export function repositoryRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const workspace = env.GITHUB_WORKSPACE;
  // The working directory is a real path (the kernel's): the workspace is made one too.
  if (workspace) return realOrResolved(path.resolve(cwd, workspace));
  return gitWorkTree(realOrResolved(cwd)) ?? cwd;
}

/** An absolute path relative to `base`, '/'-separated ("." for base itself; "../" above it). */
export function relativeTo(base: string): (absPath: string) => string {
  return (absPath) => toPosix(path.relative(base, absPath) || ".");
}

/** The diagnostic with its file relative to `show`'s base (as it was when its absolute path is unknown). */
export function shownDiagnostic(d: Diagnostic, show: (absPath: string) => string): Diagnostic {
  const absPath = absolutePathOf(d);
  return absPath === undefined ? d : { ...d, file: show(absPath) };
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
  const shown = (abs: string | undefined) => (abs === undefined ? undefined : show(realOrResolved(abs)));
  return { reference: (ref) => shown(referencePath(roots, ref)), diagnostic: (d) => shown(absolutePathOf(d)) };
}
