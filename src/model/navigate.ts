// From code to spec: which requirement or test does the code at this place carry a tag of?
// Answers from the model only; the path a client sends is never opened.
import path from "node:path";
import type { Span } from "../scan/engine/spans.js";
import type { CodeReference } from "../scan/types.js";
import type { Model } from "./model.js";

export interface TagAtPlace {
  /** The manifest whose root `file` is relative to. */
  project: string;
  file: string;
  line: number;
  symbol: string | null;
  is_test: boolean;
  id: string;
  /** What the ID names; "unknown" for a tag naming no loaded ID. */
  kind: "requirement" | "test" | "unknown";
  short?: string;
  url?: string;
}

/** A client may write `a\\b` for a path: compared as `a/b`. */
const clientSlashes = (p: string) => p.replace(/\\/g, "/");

/**
 * The absolute paths a client's `file` may mean. Displayed paths are relative to the root of
 * the manifest that owns the tag; a client may also send a path relative to another root
 * (the top project's, for a sub-project's file) or to the server's working directory, an
 * absolute path, `./x` or `a\\b`.
 */
export function candidatePaths(model: Model, file: string, cwd: string): Set<string> {
  const given = clientSlashes(file);
  const candidates = new Set<string>();
  if (path.isAbsolute(file) || path.posix.isAbsolute(given)) candidates.add(path.resolve(file));
  else for (const base of [...model.manifests.map((m) => m.root), cwd]) candidates.add(path.resolve(base, given));
  return candidates;
}

function rootsByProject(model: Model): Map<string, string[]> {
  const roots = new Map<string, string[]>();
  for (const m of model.manifests) {
    const key = m.name.toLowerCase();
    roots.set(key, [...(roots.get(key) ?? []), m.root]);
  }
  return roots;
}

function describe(model: Model, ref: CodeReference): TagAtPlace {
  const item = model.byId.get(ref.id);
  return {
    project: ref.project,
    file: ref.file,
    line: ref.line,
    symbol: ref.symbol,
    is_test: ref.is_test,
    id: ref.id,
    kind: item ? item.kind : "unknown",
    ...(item?.short ? { short: item.short } : {}),
    ...(ref.url ? { url: ref.url } : {}),
  };
}

const contains = (span: Span, line: number) => span[0] <= line && line <= span[1];

/** The innermost span holding `line` (the later-starting, then shorter one); null outside all. */
export function innermost(spans: readonly Span[], line: number): Span | null {
  let found: Span | null = null;
  for (const span of spans) {
    if (span[0] > line) break;
    if (contains(span, line) && (!found || span[0] > found[0] || span[1] <= found[1])) found = span;
  }
  return found;
}

const sameSpan = (a: Span | null, b: Span | null) => a === b || (a !== null && b !== null && a[0] === b[0] && a[1] === b[1]);

function spanOf(r: CodeReference): Span | null {
  return r.start_line !== undefined && r.end_line !== undefined ? [r.start_line, r.end_line] : null;
}

// speky:speky-ts#NAV-FIND-BY-SPAN
/**
 * The tags of `line`: those of every tagged definition whose span holds it, innermost first,
 * then the free tags written in the innermost definition holding it (tagged or not), or,
 * when no definition holds it, the free tags written outside every definition. A file scanned
 * without spans (not parsed) has no definitions: its free tags are outside every one.
 */
function tagsAtLine(inFile: readonly CodeReference[], line: number): CodeReference[] {
  const outline = inFile.find((r) => r.outline)?.outline;
  if (outline && line > outline.lines) return [];
  const tagged = inFile
    .map((r) => ({ r, span: spanOf(r) }))
    .filter((x): x is { r: CodeReference; span: Span } => x.r.symbol !== null && x.span !== null && contains(x.span, line))
    .sort((a, b) => b.span[0] - a.span[0] || a.span[1] - b.span[1] || a.r.line - b.r.line);
  const spans = outline?.spans ?? [];
  const here = innermost(spans, line);
  const free = inFile.filter((r) => r.symbol === null && sameSpan(innermost(spans, r.tag_line), here));
  return [...tagged.map((x) => x.r), ...free];
}

// speky:speky-ts#MCP-FIND-CODE-REFERENCES
/** The code references of `file` (every one, in line order), or with `line` those of that line (tagsAtLine). */
export function findCodeReferences(model: Model, file: string, line?: number, cwd = process.cwd()): TagAtPlace[] {
  const wanted = candidatePaths(model, file, cwd);
  const roots = rootsByProject(model);
  const allRoots = model.manifests.map((m) => m.root);
  // By the file each reference is in: two roots may each hold a file of that relative path.
  const byFile = new Map<string, CodeReference[]>();
  for (const r of model.codeReferences) {
    const abs = (roots.get(r.project.toLowerCase()) ?? allRoots).map((root) => path.resolve(root, r.file)).find((p) => wanted.has(p));
    if (abs === undefined) continue;
    const list = byFile.get(abs);
    if (list) list.push(r);
    else byFile.set(abs, [r]);
  }
  const inFiles = [...byFile.values()];
  const chosen = line === undefined ? inFiles.flat() : inFiles.flatMap((refs) => tagsAtLine(refs, line));
  return chosen.map((r) => describe(model, r));
}
