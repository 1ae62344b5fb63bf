// A tag whose project is no loaded project's name is another project's, and silent: it may
// belong to a manifest not loaded. But `speky:shpo#REQ-1` when `shop` is loaded is a typo that
// loses the reference without a word. A project name one or two edits from a loaded one's
// (one for names of 3 or 4 characters, none below) is a warning naming the one it likely means.

import { plural, quote, shown } from "../quote.js";
import { suggestName } from "../text/suggest.js";
import { PROJECTS_PER_CAUSE, WARNINGS_PER_CAUSE } from "./engine/cap.js";
import type { RawTag } from "./engine/tag.js";
import { MARKER } from "./engine/tag.js";

/**
 * Distinct unknown project names compared per scan (each answer remembered): a hostile tree
 * naming a million projects costs 4,096 comparisons, then its other names stay silent.
 */
export const NEAR_MISS_NAMES = 4096;

export interface NearMissWarning {
  line: number;
  column: number;
  /** Characters of the tag as written (`speky:shpo#REQ-1`), for an editor's range. */
  length: number;
  message: string;
}

const written = (tag: RawTag) => `${MARKER}${tag.project}#${tag.id}`;

// speky:speky-ts#SCAN-NEAR-MISS-PROJECT
export class NearMisses {
  private readonly known: string[];
  private readonly memo = new Map<string, string | null>();

  /** `known`: the loaded projects' names, as they declare them. */
  constructor(known: Iterable<string>) {
    this.known = [...new Set(known)];
  }

  /** The loaded project that `project` (no loaded project's name) most likely means, or null. */
  likely(project: string): string | null {
    const key = project.toLowerCase();
    const memo = this.memo.get(key);
    if (memo !== undefined) return memo;
    if (this.memo.size >= NEAR_MISS_NAMES) return null;
    const found = suggestName(project, this.known, { maxEdits: 2 });
    this.memo.set(key, found);
    return found;
  }

  /**
   * The warnings for one file's tags of unknown projects: a few per misspelled project, then
   * one line counting the rest, and the same for projects past a few (a hostile file can name
   * thousands of near misses).
   */
  warnings(tags: readonly RawTag[]): NearMissWarning[] {
    const out: NearMissWarning[] = [];
    const counts = new Map<string, { meant: string; kept: number; more: number; first: RawTag | null }>();
    let otherProjects: { count: number; first: RawTag } | null = null;
    for (const tag of tags) {
      const meant = this.likely(tag.project);
      if (meant === null) continue;
      const key = tag.project.toLowerCase();
      let seen = counts.get(key);
      if (!seen) {
        if (counts.size >= PROJECTS_PER_CAUSE) {
          if (otherProjects) otherProjects.count++;
          else otherProjects = { count: 1, first: tag };
          continue;
        }
        counts.set(key, (seen = { meant, kept: 0, more: 0, first: null }));
      }
      if (seen.kept < WARNINGS_PER_CAUSE) {
        seen.kept++;
        out.push({
          line: tag.tag_line,
          column: tag.tag_column,
          length: written(tag).length,
          message: `tag ${shown(written(tag))} names an unknown project ${quote(tag.project)} (ignored); did you mean ${shown(meant)}?`,
        });
      } else {
        seen.more++;
        seen.first ??= tag;
      }
    }
    for (const { meant, more, first } of counts.values()) {
      if (!first) continue;
      out.push({
        line: first.tag_line,
        column: first.tag_column,
        length: written(first).length,
        message: `${plural(more, "more tag")} in this file of the unknown project ${quote(first.project)} (ignored); did you mean ${shown(meant)}?`,
      });
    }
    if (otherProjects) {
      out.push({
        line: otherProjects.first.tag_line,
        column: otherProjects.first.tag_column,
        length: written(otherProjects.first).length,
        message: `${plural(otherProjects.count, "more tag")} in this file ${otherProjects.count === 1 ? "names an unknown project" : "name unknown projects"} near a loaded one's (ignored)`,
      });
    }
    return out;
  }
}
