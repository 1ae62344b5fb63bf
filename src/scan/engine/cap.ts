// A file cannot flood the output: at most a few warnings per file for one cause, then one
// line that counts the rest. A 19 MB file of a million tags gave a million warnings, 262 MB of
// JSON and 2.5 GB of memory; it now gives a handful. References are never dropped: a
// reference past the cap only loses its warning (counted in the summary).
import type { RawDiagnostic, RawTag } from "./tag.js";

/** Warnings kept per file for one cause (message) and one project. */
export const WARNINGS_PER_CAUSE = 3;
/**
 * Projects whose warnings are kept per cause; tags of further projects are counted in one
 * diagnostic. Warnings are shown for the scanned projects only, which a file can't know: a
 * hostile file naming a million projects must not keep a million.
 */
export const PROJECTS_PER_CAUSE = 16;

const plural = (n: number) => (n === 1 ? "tag" : "tags");

const NOT_SCANNED = ": tag not scanned";

export function moreTagsMessage(count: number, message: string, scanned: boolean): string {
  if (scanned) return `${count} more ${plural(count)} in this file: ${message}`;
  const cause = message.endsWith(NOT_SCANNED) ? message.slice(0, -NOT_SCANNED.length) : message;
  return `${count} more ${plural(count)} not scanned in this file: ${cause}`;
}

interface Bucket {
  kept: number;
  omitted: number;
  /** The first tag past the cap: where its summary is reported. */
  first: RawTag | null;
  /** Whether the tags past the cap are references (kept without their warning) or not. */
  scanned: boolean;
}

// speky:speky-ts#NAV-WARNING-CAP
export class WarningCap {
  private readonly buckets = new Map<string, Bucket>();
  private readonly projects = new Map<string, Set<string>>();
  private readonly others = new Map<string, { count: number; first: RawTag; scanned: boolean }>();

  /** The tag to keep (its warning dropped past the cap when it is a reference), or null (counted). */
  admit(tag: RawTag): RawTag | null {
    const message = tag.warning;
    if (message === null) return tag;
    const project = tag.project.toLowerCase();
    let seen = this.projects.get(message);
    if (!seen) this.projects.set(message, (seen = new Set()));
    if (!seen.has(project) && seen.size >= PROJECTS_PER_CAUSE) {
      const other = this.others.get(message);
      if (other) other.count++;
      else this.others.set(message, { count: 1, first: tag, scanned: tag.reference });
      return tag.reference ? { ...tag, warning: null } : null;
    }
    seen.add(project);
    const key = `${message}\0${project}`;
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { kept: 0, omitted: 0, first: null, scanned: tag.reference }));
    if (bucket.kept < WARNINGS_PER_CAUSE) {
      bucket.kept++;
      return tag;
    }
    bucket.omitted++;
    bucket.first ??= tag;
    return tag.reference ? { ...tag, warning: null } : null;
  }

  /** One warning-only tag per capped cause and project (shown only for a scanned project). */
  summaryTags(): RawTag[] {
    const tags: RawTag[] = [];
    for (const { omitted, first, scanned } of this.buckets.values()) {
      if (!first) continue;
      const { line, column, tag_line, tag_column, project, id } = first;
      tags.push({
        line,
        column,
        tag_line,
        tag_column,
        project,
        id,
        symbol: null,
        kind: null,
        is_test: false,
        reference: false,
        warning: moreTagsMessage(omitted, first.warning!, scanned),
      });
    }
    return tags;
  }

  /** Tags of projects past PROJECTS_PER_CAUSE, whichever project: one diagnostic per cause. */
  summaryDiagnostics(): RawDiagnostic[] {
    return [...this.others.entries()].map(([message, { count, first, scanned }]) => ({
      line: first.line,
      column: first.column,
      message: `${moreTagsMessage(count, message, scanned)} (of ${PROJECTS_PER_CAUSE}+ projects)`,
    }));
  }
}

/** The first WARNINGS_PER_CAUSE diagnostics of each message, then one that counts the rest. */
export function capDiagnostics(diagnostics: RawDiagnostic[]): RawDiagnostic[] {
  const counts = new Map<string, number>();
  const kept: RawDiagnostic[] = [];
  const firstOmitted = new Map<string, RawDiagnostic>();
  for (const d of diagnostics) {
    const n = (counts.get(d.message) ?? 0) + 1;
    counts.set(d.message, n);
    if (n <= WARNINGS_PER_CAUSE) kept.push(d);
    else if (!firstOmitted.has(d.message)) firstOmitted.set(d.message, d);
  }
  for (const [message, d] of firstOmitted) {
    const more = counts.get(message)! - WARNINGS_PER_CAUSE;
    kept.push({ line: d.line, column: d.column, message: `${more} more in this file: ${message}` });
  }
  return kept;
}

/** Caps the warnings of a file's tags and diagnostics (idempotent). */
export function capWarnings<T extends { tags: RawTag[]; diagnostics: RawDiagnostic[] }>(result: T): T {
  if (!result.tags.some((t) => t.warning !== null) && result.diagnostics.length <= WARNINGS_PER_CAUSE) return result;
  const cap = new WarningCap();
  const tags: RawTag[] = [];
  for (const tag of result.tags) {
    const kept = cap.admit(tag);
    if (kept) tags.push(kept);
  }
  tags.push(...cap.summaryTags());
  return { ...result, tags, diagnostics: [...capDiagnostics(result.diagnostics), ...cap.summaryDiagnostics()] };
}
