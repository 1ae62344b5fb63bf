import type { Diagnostic } from "../diagnostics.js";
import type { Boundary } from "../fs/boundary.js";
import type { SourceLinks, SourceLocation } from "../loader/types.js";
import type { FileOutline } from "./engine/spans.js";

export interface CodeReference {
  /** Project name as the manifest declares it. */
  project: string;
  id: string;
  /** Relative to the root of the manifest whose name the tag uses, `/`-separated. */
  file: string;
  /** 1-based: the definition's name line (symbol reference) or the tag's line (free). */
  line: number;
  /** 1-based, in Unicode code points, of the same place as `line`. */
  column: number;
  /**
   * A symbol reference's definition span: its first decorator, attribute or name line
   * (start_line, not printed by `speky scan`) to its last line (end_line).
   */
  start_line?: number;
  end_line?: number;
  /** Where the tag itself is written (differs from line/column for a symbol reference). */
  tag_line: number;
  tag_column: number;
  /** Qualified name; null for a free reference. */
  symbol: string | null;
  /** Definition kind from the grammar query (function, method, class, test...); null when free. */
  kind: string | null;
  is_test: boolean;
  /** Language id from grammars/languages.json. */
  language: string;
  url?: string;
  /**
   * The definition spans of the tag's file (shared by its references; not printed): what
   * find_code_references(file, line) needs. Absent when the file wasn't parsed.
   */
  outline?: FileOutline;
}

/** What to scan for one manifest: its code_sources globs under its root. */
export interface ScanTarget {
  project: string;
  root: string;
  patterns: string[];
  /** Where each pattern is written: its problems (no match, outside the boundary) are reported there. */
  sites?: SourceLocation[];
  /** Absolute path of the file the sites are in (the manifest). */
  sitesPath?: string;
  /** The folders the patterns may reach (src/fs/boundary.ts); null or absent: anywhere. */
  boundary?: Boundary | null;
  /** Skip files excluded by .gitignore/.ignore inside a git work tree; default true. */
  ignore?: boolean;
  source_links?: SourceLinks;
}

export interface ScanStats {
  files: number;
  files_with_tags: number;
  /** Every tag-shaped occurrence seen in comments, including other projects'. */
  tags: number;
  ms: number;
}

export interface ScanResult {
  /** Sorted by file, line, id. */
  references: CodeReference[];
  /** Sorted. */
  diagnostics: Diagnostic[];
  stats: ScanStats;
}
