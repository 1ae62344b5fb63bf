// The loaded specification: plain data, frozen after load. Field names follow the spec
// format (snake_case) so that MCP output can be built from them without renaming.
import type { Diagnostic } from "../diagnostics.js";
import type { Boundary } from "../fs/boundary.js";

export interface SourceLocation {
  /** Displayed path of the file. */
  file: string;
  line: number;
  column: number;
}

export interface Step {
  action: string;
  run?: string;
  expected?: string;
  sample?: string;
  sample_lang?: string;
}

export interface Requirement {
  kind: "requirement";
  id: string;
  category: string;
  long: string;
  short?: string;
  /** Empty when the file gives none. */
  tags: string[];
  client_statement?: string;
  properties?: Record<string, string | number>;
  /** Empty when the file gives none. */
  ref: string[];
  /** Displayed path of the file it was loaded from. */
  source_file: string;
  /** Name of the manifest that reached this file; null when the file was given directly. */
  project: string | null;
  /** Where the item is defined (its list entry / table), for messages. */
  loc: SourceLocation;
}

export interface Test {
  kind: "test";
  id: string;
  category: string;
  long: string;
  short?: string;
  initial?: string;
  ref: string[];
  /** Empty when the file gives none. */
  prereq: string[];
  steps: Step[];
  source_file: string;
  project: string | null;
  loc: SourceLocation;
}

export type Item = Requirement | Test;

export interface Comment {
  about: string;
  date: string;
  from: string;
  text: string;
  external: boolean;
  loc: SourceLocation;
}

/** `source_links` after `auto` was resolved through git. */
export interface SourceLinks {
  /** e.g. https://github.com/org/repo (no trailing slash, no .git) */
  url: string;
  branch: string;
  /** Absolute path of the git work tree root: link paths are relative to it. */
  gitRoot: string;
}

export interface Manifest {
  name: string;
  /** Displayed path of the manifest file. */
  file: string;
  /** Absolute path of the manifest file. */
  absFile: string;
  /** Absolute root directory: globs and displayed paths are relative to it. */
  root: string;
  coverage_categories: string[];
  /** Globs relative to root, as written. */
  code_sources: string[];
  /** Where each code_sources glob is written (its problems are reported there). Not enumerable. */
  code_source_sites: SourceLocation[];
  /** The folders its paths may reach (src/fs/boundary.ts); null with --allow-outside. Not enumerable. */
  boundary: Boundary | null;
  source_links?: SourceLinks;
  /** Globs of JUnit XML results relative to root, as written (src/results). Not enumerable. */
  test_results?: string[];
  /** Where each test_results glob is written. Not enumerable. */
  test_result_sites?: SourceLocation[];
  /** Name of the manifest that reached this one; null for a top-level manifest. */
  parent: string | null;
}

/** What changes when a file is written: its size, modification and change times. */
export interface ReadStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface SpecSet {
  /** Load order. */
  requirements: Requirement[];
  tests: Test[];
  comments: Comment[];
  manifests: Manifest[];
  /** Absolute paths of every file read (specs, manifests, CSVs): what a watcher watches. */
  files: string[];
  /** Loader warnings (unknown fields, test ref naming a test, no git for source_links...). */
  warnings: Diagnostic[];
}

export interface LoadOptions {
  /** Extra CSV comment files (speky-mcp -C). */
  csvs?: string[];
  /** Directory that command-line paths are relative to; default process.cwd(). */
  cwd?: string;
  /**
   * Texts that replace the content of files on disk, by absolute path (an editor's unsaved
   * buffers): the file must still exist, and is read with its text instead.
   */
  overlay?: ReadonlyMap<string, string>;
  /** Lift the confinement boundary (--allow-outside): the tree is trusted. */
  allowOutside?: boolean;
  /**
   * How a message names another file (a first definition, a failed file): default its
   * displayed path; `speky check` names it relative to the folder its output is relative to.
   */
  cite?: (absPath: string, display: string) => string;
}

export interface LoadResult {
  /** null when any error was found. */
  specs: SpecSet | null;
  /** Errors and warnings, sorted (a failed file's own errors first, src/loader/cause.ts). */
  diagnostics: Diagnostic[];
  /** When specs is null: what did load, so that code tags can be checked all the same. */
  partial?: PartialLoad;
}

/** A file named by its displayed and its absolute path. */
export interface FileName {
  file: string;
  path: string;
}

export interface PartialLoad {
  /** What loaded; its manifests are those without errors of their own. */
  specs: SpecSet;
  /** IDs that files which failed to load show: a tag naming one follows from that failure. */
  orphaned: ReadonlySet<string>;
  /** Manifests with errors, whose tags are not checked; name null when it could not be read. */
  failedManifests: (FileName & { name: string | null })[];
  /** Files that could not be read at all: nothing tells which IDs they define. */
  unread: FileName[];
  /** How many of the diagnostics lead as causes (a failed file's errors, then its count line). */
  leading: number;
}
