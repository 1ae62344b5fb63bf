// The document `speky diff` answers (docs/changes.md), with its field names, and the
// orders every list is sorted in. Links (source_links) ride along hidden: the Markdown and the
// report use them, the JSON carries exactly the contract's fields.
import { compareStrings, type Diagnostic } from "../diagnostics.js";
import type { Summary } from "../model/answer-shapes.js";
import type { CoverageBucket } from "../model/coverage.js";
import type { CodeReference } from "../scan/types.js";

export interface RefShape {
  id: string;
  /** The project whose tag it is (the manifest's name as written). */
  project: string;
  /** From the repository's top, `/`-separated (as written when outside the repository). */
  file: string;
  line: number;
  symbol: string | null;
  is_test: boolean;
}

/** The project of an item: its manifest's name; null for a spec file given directly. */
export type ItemSummary = Summary & { project: string | null };

export interface ChangedItem {
  id: string;
  project: string | null;
  fields: string[];
}

/** An item whose ID changed while every other field stayed equal. */
export interface RenamedItem {
  from: string;
  to: string;
  project: string | null;
}

export interface ItemChanges {
  added: ItemSummary[];
  removed: ItemSummary[];
  changed: ChangedItem[];
  renamed: RenamedItem[];
}

/** A tag that went with its definition to another file or place (or whose definition was renamed where it stands). */
export interface MovedRef {
  id: string;
  project: string;
  from: RefShape;
  to: RefShape;
}

/** A manifest whose keys changed: added (every key), removed (every key) or changed (those that differ). */
export interface ManifestChange {
  file: string;
  project: string;
  change: "added" | "removed" | "changed";
  keys: string[];
}

export interface CoverageChange {
  id: string;
  project: string | null;
  from: CoverageBucket;
  to: CoverageBucket;
}

export interface ImpactEntry {
  project: string;
  file: string;
  /** The definition's name; null for a free tag's definition known only by its lines, or a whole file. */
  symbol: string | null;
  start_line: number;
  end_line: number;
  ids: string[];
}

export interface SuspectEntry {
  id: string;
  project: string | null;
  code: RefShape[];
}

export interface Problem {
  file: string;
  line: number;
  column: number;
  severity: "error" | "warning";
  message: string;
}

export interface Changes {
  base: string;
  base_commit: string;
  head: string;
  /** Present when HEAD is a revision. */
  head_commit?: string;
  /** Present when a revision holds files that could not be compared (a link no file system takes): a warning at each. */
  warnings?: { base?: Problem[]; head?: Problem[] };
  /** The sides none of whose manifests or spec files exist (an empty model: the pull request adopting speky). */
  without_specification?: ("base" | "head")[];
  /** Present when a side's specs do not load: its errors; the sections needing both sides are left out. */
  load_errors?: { base?: Problem[]; head?: Problem[] };
  manifests?: ManifestChange[];
  requirements?: ItemChanges;
  tests?: ItemChanges;
  code_references?: { added: RefShape[]; removed: RefShape[]; moved: MovedRef[] };
  coverage?: CoverageChange[];
  impact?: ImpactEntry[];
  suspect?: SuspectEntry[];
  rerun?: string[];
}

/** The sections, in the document's order. */
export const SECTIONS = ["manifests", "requirements", "tests", "code_references", "coverage", "impact", "suspect", "rerun"] as const;
export type Section = (typeof SECTIONS)[number];

const URL_KEY = Symbol("url");
const AUTOMATED_KEY = Symbol("automated");

type Linked = { [URL_KEY]?: string };

/** The source_links URL of a shaped reference or impact entry, when known. */
export function linkOf(value: RefShape | ImpactEntry): string | undefined {
  return (value as Linked)[URL_KEY];
}

/** A reference as the diff shows it: `file` from the repository's top when it is in the repository. */
export function refShape(ref: CodeReference, file: string | null, url = ref.url): RefShape {
  const shaped: RefShape = {
    id: ref.id,
    project: ref.project,
    file: file ?? ref.file,
    line: ref.line,
    symbol: ref.symbol,
    is_test: ref.is_test,
  };
  if (url !== undefined) (shaped as Linked)[URL_KEY] = url;
  return shaped;
}

export function impactEntry(
  project: string,
  file: string,
  symbol: string | null,
  span: [number, number],
  ids: Iterable<string>,
  automated: Iterable<string>,
  url?: string,
): ImpactEntry {
  const entry: ImpactEntry = { project, file, symbol, start_line: span[0], end_line: span[1], ids: [...new Set(ids)].sort(compareStrings) };
  (entry as unknown as Record<symbol, unknown>)[AUTOMATED_KEY] = [...new Set(automated)];
  if (url !== undefined) (entry as Linked)[URL_KEY] = url;
  return entry;
}

/** The IDs of an impact entry whose reference there is an automated test. */
export function automatedIds(entry: ImpactEntry): readonly string[] {
  return ((entry as unknown as Record<symbol, unknown>)[AUTOMATED_KEY] as string[] | undefined) ?? [];
}

export function compareRefs(a: RefShape, b: RefShape): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    compareStrings(a.id, b.id) ||
    compareStrings(a.symbol ?? "", b.symbol ?? "") ||
    Number(a.is_test) - Number(b.is_test) ||
    compareStrings(a.project, b.project)
  );
}

export function compareMoved(a: MovedRef, b: MovedRef): number {
  return compareRefs(a.from, b.from) || compareRefs(a.to, b.to);
}

export function compareImpact(a: ImpactEntry, b: ImpactEntry): number {
  return (
    compareStrings(a.file, b.file) ||
    a.start_line - b.start_line ||
    a.end_line - b.end_line ||
    compareStrings(a.symbol ?? "", b.symbol ?? "") ||
    compareStrings(a.ids.join("\0"), b.ids.join("\0")) ||
    compareStrings(a.project, b.project)
  );
}

export function problem(d: Diagnostic): Problem {
  return { file: d.file, line: d.line, column: d.column, severity: d.severity, message: d.message };
}
