// Spec files: diagnostics of unsaved buffers (the loader run over the open buffers' texts)
// and where an ID may be completed.

import path from "node:path";
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from "vscode-languageserver";
import { compareDiagnostics, type Diagnostic } from "../diagnostics.js";
import type { Collected, FileContext } from "../loader/collect.js";
import { FileDiagnostics } from "../loader/file-diagnostics.js";
import { MAX_FILE_BYTES } from "../loader/files.js";
import { fileKind } from "../loader/format/file-kind.js";
import { readItemsFile } from "../loader/items.js";
import { loadSpecs } from "../loader/load.js";
import { StringPool } from "../loader/own-strings.js";
import { readToml } from "../loader/toml/source.js";
import type { Item } from "../loader/types.js";
import { validateReferences } from "../loader/validate.js";
import { readYaml } from "../loader/yaml/source.js";
import type { Project } from "./project.js";
import type { MentionField } from "./spec-index.js";
import { splitLines, utf16Column } from "./text.js";

const SPEC_EXTENSIONS = new Set([".yaml", ".yml", ".toml"]);
const KIND_LINE = /^kind\s*[:=]/m;

/** A YAML or TOML buffer that declares a `kind`: a spec file (the name never decides). */
export function isSpecText(abs: string, text: string): boolean {
  return SPEC_EXTENSIONS.has(path.extname(abs).toLowerCase()) && KIND_LINE.test(text);
}

// speky:speky-ts#LSP-SPEC-DIAGNOSTICS
/**
 * The loader's errors and warnings for each open spec buffer, as `speky check` reports them,
 * the specs loaded with the buffers' texts in place of the files. `roots` are the folders a
 * displayed path can be relative to (manifest roots, the working directory).
 */
export async function specDiagnostics(
  paths: string[],
  cwd: string,
  overlay: ReadonlyMap<string, string>,
  roots: readonly string[],
): Promise<Map<string, LspDiagnostic[]>> {
  const { diagnostics } = await loadSpecs(paths, { cwd, overlay });
  const out = new Map<string, LspDiagnostic[]>([...overlay.keys()].map((abs) => [abs, []]));
  for (const d of diagnostics) {
    for (const root of roots) {
      const list = out.get(path.resolve(root, d.file));
      if (list) {
        list.push(toLsp(d, overlay.get(path.resolve(root, d.file))!));
        break;
      }
    }
  }
  return out;
}

export function toLsp(d: Diagnostic, text: string): LspDiagnostic {
  const line = Math.max(0, d.line - 1);
  const lineText = d.line > 0 ? (splitLines(text)[line] ?? "") : "";
  const start = d.line > 0 ? utf16Column(lineText, Math.max(1, d.column)) : 0;
  // The rest of the word the diagnostic points at, at least one character.
  const word = /^[^\s,\]}#]*/.exec(lineText.slice(start))![0].length;
  return {
    range: { start: { line, character: start }, end: { line, character: start + Math.max(1, word) } },
    severity: d.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    source: "speky",
    message: d.message,
  };
}

/**
 * Which field an ID typed at the end of `prefix` (the line up to the cursor) belongs to:
 * `ref: [A, `, `about: `, `ref = ["`, or a list item under `ref:` / `prereq:` / `ref = [`.
 */
export function idFieldAt(lineAt: (line: number) => string, line: number, prefix: string): MentionField | null {
  const inline = /^\s*(?:-\s+)?(ref|prereq|about)\s*[:=]\s*(.*)$/.exec(prefix);
  if (inline) {
    const rest = inline[2];
    const field = inline[1] as MentionField;
    if (field === "about") return /^["']?[A-Za-z0-9_-]*$/.test(rest) ? field : null;
    return /^\[[^\]]*$/.test(rest) || /^["']?[A-Za-z0-9_-]*$/.test(rest) ? field : null;
  }
  // A YAML block list item, or a line of a TOML array spread over lines.
  const item = /^(\s*)-\s+["']?[A-Za-z0-9_-]*$/.exec(prefix);
  const arrayLine = /^\s*(["'][A-Za-z0-9_-]*["']\s*,\s*)*["']?[A-Za-z0-9_-]*$/.test(prefix);
  if (!item && !arrayLine) return null;
  const indent = item ? item[1].length : -1;
  for (let i = line - 1, seen = 0; i >= 0 && seen < 10_000; i--, seen++) {
    const text = lineAt(i);
    if (/^\s*(#.*)?$/.test(text)) continue;
    if (item) {
      const sibling = /^(\s*)-\s/.exec(text);
      if (sibling && sibling[1].length === indent) continue;
      const key = /^(\s*)(?:-\s+)?(ref|prereq)\s*:\s*(#.*)?$/.exec(text);
      return key ? (key[2] as MentionField) : null;
    }
    if (/^\s*(["'][A-Za-z0-9_-]*["']\s*,?\s*)+$/.test(text)) continue;
    const key = /^\s*(ref|prereq)\s*=\s*\[\s*(["'][A-Za-z0-9_-]*["']\s*,?\s*)*$/.exec(text);
    return key ? (key[1] as MentionField) : null;
  }
  return null;
}

/**
 * The diagnostics of one edited requirements or tests file, without loading everything
 * again: the file is read as the loader reads it, then checked against the other files'
 * items as the served model holds them, in load order (duplicate IDs, refs, prereqs), with
 * the loader's own checks. null when only a whole load can tell (a manifest, a comments
 * file, a file the model does not hold items from).
 */
export async function fileDiagnostics(project: Project, abs: string, text: string): Promise<Diagnostic[] | null> {
  const model = project.model;
  if (!model || text.length > MAX_FILE_BYTES) return null;
  const { files, items } = project.loadOrder();
  const place = files.get(abs);
  if (!place) return null;
  const diagnostics: Diagnostic[] = [];
  const report = new FileDiagnostics(place.display, diagnostics);
  const out: Collected = { items: [], comments: [], references: [], strings: new StringPool() };
  const ctx: FileContext = { file: place.display, project: place.project, report, out };
  const root = path.extname(abs).toLowerCase() === ".toml" ? readToml(text, report) : await readYaml(text, report);
  if (root !== undefined) {
    const found = fileKind(root, report);
    if (found && found.kind !== "requirements" && found.kind !== "tests") return null;
    if (found) readItemsFile(found.map, found.kind as "requirements" | "tests", ctx);
  }
  const all: Item[] = [];
  let inserted = false;
  for (const { item, file } of items) {
    if (file === place.index) continue;
    if (!inserted && file > place.index) {
      all.push(...out.items);
      inserted = true;
    }
    all.push(item);
  }
  if (!inserted) all.push(...out.items);
  validateReferences({ ...out, items: all, comments: [] }, diagnostics);
  return diagnostics
    .filter((d) => d.file === place.display)
    .sort(compareDiagnostics)
    .filter((d, i, sorted) => i === 0 || compareDiagnostics(d, sorted[i - 1]) !== 0);
}
