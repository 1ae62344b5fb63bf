// What file readers add to as they go: the items, comments and ID references of everything
// loaded so far, checked together once every file is read (validate.ts).

import type { FileDiagnostics } from "./file-diagnostics.js";
import { entryOf, type Pos, type SMap } from "./format/node.js";
import type { StringPool } from "./own-strings.js";
import type { Comment, Item, SourceLocation } from "./types.js";

/** One ID named by a `ref`, `prereq` or comment `about`, where it was written. */
export interface Reference extends SourceLocation {
  field: "ref" | "prereq" | "about";
  id: string;
}

export interface Collected {
  /** Requirements and tests together, in load order: duplicate IDs are found across both. */
  items: Item[];
  comments: Comment[];
  references: Reference[];
  /** What the values kept are copied through (own-strings.ts). */
  strings: StringPool;
}

/** The file being read: its displayed path, its project, where its problems go. */
export interface FileContext {
  file: string;
  project: string | null;
  report: FileDiagnostics;
  out: Collected;
}

export function locate(ctx: FileContext, at: Pos): SourceLocation {
  return { file: ctx.file, line: at.line, column: at.column };
}

/** Records the IDs a list of IDs names (those that are strings; others were reported). */
export function collectReferences(ctx: FileContext, map: SMap, field: "ref" | "prereq"): void {
  const list = entryOf(map, field)?.value;
  if (list?.type !== "seq") return;
  for (const id of list.items) {
    if (id.type === "scalar" && id.tag === "str") {
      const { line, column } = id;
      ctx.out.references.push({ field, id: id.value as string, file: ctx.file, line, column });
    }
  }
}
