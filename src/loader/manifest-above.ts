// Where a folder's own manifest is when none is named: in it, or in a folder above it inside
// the same git work tree. Light on purpose: every command without a PATH asks it first, before
// any reader is loaded.
import fs from "node:fs";
import path from "node:path";
import { gitWorkTree } from "../fs/boundary.js";
import { realOrResolved } from "../fs/paths.js";

/** The manifest a folder stands for when no other is named: its own, found in it or above it. */
export const DEFAULT_MANIFEST = "speky.yaml";

// speky:speky-ts#CLI-MANIFEST-ABOVE
/**
 * The nearest `speky.yaml` in a folder above `folder` (its parent first), as git finds `.git`:
 * up to the root of the git work tree holding `folder`, never above it. Outside git, none: a
 * folder above that no repository ties to the current one (`/tmp`, the home folder, where MCP
 * hosts start servers) is nobody's project, and a manifest planted there must not be loaded.
 * Absolute, or null.
 */
export function manifestAbove(folder: string): string | null {
  const start = realOrResolved(folder);
  const root = gitWorkTree(start);
  if (root === null || start === root) return null;
  for (let dir = path.dirname(start); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, DEFAULT_MANIFEST);
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
}
