// Source files: the tag under the cursor, the diagnostics of an unsaved buffer (the scanner
// run on its text), and completion of `speky:<project>#<ID>` tags in comments.
import {
  type CompletionItem,
  CompletionItemKind,
  DiagnosticSeverity,
  type Diagnostic as LspDiagnostic,
  type Position,
} from "vscode-languageserver";
import type { Model } from "../model/model.js";
import { MARKER, type RawTag, scanFileBuffer, scanText, scanTextWith } from "../scan/engine/index.js";
import { languageForPath, languageForShebang } from "../scan/grammar/languages.js";
import { NearMisses } from "../scan/near-miss.js";
import { suggestId } from "../text/suggest.js";
import type { Project } from "./project.js";
import { codePointColumn, splitLines, utf16Column } from "./text.js";
import { inComment, type Parsed } from "./trees.js";

const TAG = /speky:([A-Za-z0-9_.-]+)#([A-Za-z0-9_-]+)/g;

export interface TagUnderCursor {
  project: string;
  id: string;
  line: number;
  start: number;
  end: number;
}

/** The tag written around a position of a line (hover and definition need no parse). */
export function tagAt(line: string, lineNumber: number, character: number): TagUnderCursor | null {
  for (const m of line.matchAll(TAG)) {
    const start = m.index;
    const end = start + m[0].length;
    if (start <= character && character <= end) return { project: m[1], id: m[2], line: lineNumber, start, end };
  }
  return null;
}

// speky:speky-ts#LSP-SOURCE-DIAGNOSTICS
/**
 * The scanner's verdict on a buffer: dangling tags (errors, with the closest ID), malformed
 * tags and tags that are not tags (warnings). Tags of projects not loaded are not ours.
 */
export async function sourceDiagnostics(
  project: Project,
  model: Model,
  abs: string,
  text: string,
  parsed: Parsed | null,
): Promise<{ diagnostics: LspDiagnostic[]; tags: RawTag[] }> {
  // The buffer's incrementally parsed tree when it has one; else as a file of that name.
  const result = parsed ? scanTextWith(parsed.lang, abs, text, parsed.tree) : await scanFileBuffer(abs, Buffer.from(text, "utf8"));
  const lines = splitLines(text);
  const range = (line: number, column: number, length: number) => {
    const l = Math.max(0, line - 1);
    const start = utf16Column(lines[l] ?? "", Math.max(1, column));
    return { start: { line: l, character: start }, end: { line: l, character: start + length } };
  };
  const diagnostics: LspDiagnostic[] = [];
  for (const d of result.diagnostics) {
    diagnostics.push({
      range: range(d.line, d.column, MARKER.length),
      severity: DiagnosticSeverity.Warning,
      source: "speky",
      message: d.message,
    });
  }
  const tags = result.tags.filter((t) => project.projectNamed(t.project) !== undefined);
  for (const tag of tags) {
    const written = `${MARKER}${tag.project}#${tag.id}`;
    const where = range(tag.tag_line, tag.tag_column, written.length);
    if (tag.warning) diagnostics.push({ range: where, severity: DiagnosticSeverity.Warning, source: "speky", message: tag.warning });
    if (tag.reference && !model.byId.has(tag.id)) {
      const suggestion = suggestId(tag.id, model.byId.keys());
      const hint = suggestion ? `; did you mean ${suggestion}?` : "";
      diagnostics.push({
        range: where,
        severity: DiagnosticSeverity.Error,
        source: "speky",
        code: "unknown-id",
        message: `tag ${written} names an unknown ID '${tag.id}'${hint}`,
        ...(suggestion ? { data: { suggestion } } : {}),
      });
    }
  }
  // A tag of a project one or two edits from a loaded one's (src/scan/near-miss.ts).
  const unknown = result.tags.filter((t) => t.reference && project.projectNamed(t.project) === undefined);
  if (unknown.length > 0) {
    for (const w of new NearMisses(model.manifests.map((m) => m.name)).warnings(unknown)) {
      diagnostics.push({
        range: range(w.line, w.column, w.length),
        severity: DiagnosticSeverity.Warning,
        source: "speky",
        message: w.message,
      });
    }
  }
  diagnostics.sort(
    (a, b) =>
      a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || (a.severity ?? 0) - (b.severity ?? 0),
  );
  return { diagnostics, tags };
}

/** Completion items are capped: the client asks again as the user types (isIncomplete). */
export const MAX_COMPLETIONS = 200;

/** IDs starting with `typed` (case-insensitive), then (from two characters on) IDs containing it, capped. */
export function matchingIds(model: Model, typed: string, order: "requirements" | "tests" | "both"): string[] {
  const lists =
    order === "requirements"
      ? [model.requirementIds, model.testIds]
      : order === "tests"
        ? [model.testIds, model.requirementIds]
        : [model.requirementIds, model.testIds];
  const upper = typed.toUpperCase();
  const out: string[] = [];
  for (const pass of [0, 1]) {
    for (const ids of lists) {
      for (const id of ids) {
        const u = id.toUpperCase();
        const hit = pass === 0 ? u.startsWith(upper) : !u.startsWith(upper) && u.includes(upper);
        if (hit && out.push(id) >= MAX_COMPLETIONS) return out;
      }
    }
    if (upper.length < 2) break;
  }
  return out;
}

export function idItems(model: Model, ids: string[], range: { start: Position; end: Position }): CompletionItem[] {
  return ids.map((id, i) => {
    const item = model.byId.get(id)!;
    return {
      label: id,
      kind: item.kind === "requirement" ? CompletionItemKind.Constant : CompletionItemKind.Event,
      detail: item.short ?? item.category,
      sortText: String(i).padStart(4, "0"),
      filterText: id,
      textEdit: { range, newText: id },
    };
  });
}

/**
 * Whether the tag being typed would be a tag once finished: the buffer is scanned with a tag
 * completed at the cursor, and the scanner's verdict on it decides (docstrings, comments by
 * query, buffers without a tree).
 */
async function probeIsTag(
  abs: string,
  text: string,
  offset: number,
  position: Position,
  line: string,
  m: RegExpExecArray,
): Promise<boolean> {
  const language = languageForPath(abs) ?? languageForShebang(text);
  if (!language) return false;
  const filler = m[2] !== undefined ? (m[3] ? "" : "X") : `${m[1] ? "" : "p"}#X`;
  const probe = text.slice(0, offset) + filler + text.slice(offset);
  const markerLine = position.line + 1;
  const markerColumn = codePointColumn(line, m.index);
  const scanned = await scanText(abs, language, probe);
  return scanned.tags.find((t) => t.tag_line === markerLine && t.tag_column === markerColumn)?.reference === true;
}

// speky:speky-ts#LSP-COMPLETION
/**
 * After the tag marker the project names, after `speky:<project>#` the IDs; only where the scanner
 * would take the finished tag for a tag: in a comment by the buffer's tree, else as the
 * scanner judges a probe (probeIsTag).
 */
export async function sourceCompletion(
  project: Project,
  model: Model,
  abs: string,
  text: string,
  offset: number,
  position: Position,
  line: string,
  parsed: Parsed | null,
): Promise<{ items: CompletionItem[]; incomplete: boolean } | null> {
  const prefix = line.slice(0, position.character);
  const m = /speky:([A-Za-z0-9_.-]*)(#([A-Za-z0-9_-]*))?$/.exec(prefix);
  if (!m) return null;
  const typedProject = m[1];
  const inIds = m[2] !== undefined;
  if (inIds && project.projectNamed(typedProject) === undefined) return null;
  const commented = parsed ? inComment(parsed, offset - position.character + m.index) : null;
  if (commented === false) return null;
  if (commented === null && !(await probeIsTag(abs, text, offset, position, line, m))) return null;
  if (!inIds) {
    const start = { line: position.line, character: m.index + MARKER.length };
    const range = { start, end: position };
    const items = model.manifests.map((manifest) => ({
      label: manifest.name,
      kind: CompletionItemKind.Module,
      detail: `project ${manifest.file}`,
      textEdit: { range, newText: `${manifest.name}#` },
    }));
    return { items, incomplete: false };
  }
  const typed = m[3];
  const range = { start: { line: position.line, character: position.character - typed.length }, end: position };
  const ids = matchingIds(model, typed, "both");
  return { items: idItems(model, ids, range), incomplete: ids.length >= MAX_COMPLETIONS };
}
