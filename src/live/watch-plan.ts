// What a live model watches (watchPlan) and which changes matter to it (Relevance), derived
// from one model.
import { statSync } from "node:fs";
import path from "node:path";
import { allowed } from "../fs/boundary.js";
import { compileGlob, patternReaches } from "../fs/globs.js";
import { realOrResolved } from "../fs/paths.js";
import { type ModelOptions, resultsSources } from "../model/load-model.js";
import type { Model } from "../model/model.js";
import type { WatchPlan } from "./watcher.js";

/** Extensions a spec file matched by a manifest glob may have (the loader reads any name). */
const SPEC_EXTENSIONS = new Set([".yaml", ".yml", ".toml", ".json", ".csv"]);
/** The folder a pattern's walk starts from ("src/**\/*.ts" → "src"; a literal path: itself). */
function globBase(pattern: string): string {
  const glob = compileGlob(pattern);
  return glob ? glob.base || "." : pattern;
}

/** What a change must touch to matter, derived from one model. */
export class Relevance {
  private readonly filesRead: Set<string>;
  private readonly specFolders: Set<string>;
  private readonly codeMatchers: { root: string; patterns: string[] }[];
  /** Absolute files holding code references: removing a folder above one matters. */
  private readonly taggedFiles: string[];
  /** The test results' globs, each with the folder it is relative to. */
  private readonly resultsMatchers: { root: string; patterns: string[] }[];

  constructor(model: Model, options: ModelOptions = {}) {
    this.resultsMatchers = resultsMatchers(model, options);
    this.filesRead = new Set(model.specs.files.map((f) => path.resolve(f)));
    this.specFolders = new Set([...this.filesRead].map((f) => path.dirname(f)));
    this.codeMatchers = model.manifests.filter((m) => m.code_sources.length > 0).map((m) => ({ root: m.root, patterns: m.code_sources }));
    const roots = new Map(model.manifests.map((m) => [m.name.toLowerCase(), m.root]));
    this.taggedFiles = model.codeReferences.flatMap((r) => {
      const root = roots.get(r.project.toLowerCase());
      return root ? [path.resolve(root, r.file)] : [];
    });
  }

  // speky:speky-ts#RESULTS-LIVE
  /** A results file (written by a test run): the results are read again, the specs and code are not. */
  isResults(abs: string): boolean {
    return this.resultsMatchers.some(({ root, patterns }) => patterns.some((p) => patternReaches(root, p, abs)));
  }

  matters(abs: string): boolean {
    if (this.filesRead.has(abs) || this.specFolders.has(path.dirname(abs))) return true;
    if (SPEC_EXTENSIONS.has(path.extname(abs).toLowerCase())) return true;
    for (const { root, patterns } of this.codeMatchers) {
      if (patterns.some((p) => patternReaches(root, p, abs))) return true;
    }
    const stat = statSync(abs, { throwIfNoEntry: false });
    // A new folder may hold new sources or specs; a removed one may have held tagged code.
    if (stat?.isDirectory()) return true;
    if (!stat) {
      const prefix = abs + path.sep;
      return [...this.filesRead, ...this.taggedFiles].some((f) => f.startsWith(prefix));
    }
    return false;
  }
}

/** The globs of a model's test results, with the folder each is relative to. */
function resultsMatchers(model: Model, options: ModelOptions): { root: string; patterns: string[] }[] {
  const sources = resultsSources(model.specs, options);
  return [
    ...sources.manifests.filter((m) => (m.test_results ?? []).length > 0).map((m) => ({ root: m.root, patterns: m.test_results ?? [] })),
    ...(sources.globs.length > 0 ? [{ root: sources.cwd, patterns: [...sources.globs] }] : []),
  ];
}

/** Directories to watch for a model: manifest roots and code_sources bases as trees, folders of files read. */
export function watchPlan(model: Model, options: ModelOptions = {}): WatchPlan {
  const trees = new Set<string>();
  // Test results: where each glob's walk starts and the folders of the files read (a test run
  // writes there), whatever .gitignore says of them.
  const results = new Set<string>();
  for (const { root, patterns } of resultsMatchers(model, options)) {
    for (const pattern of patterns) results.add(path.resolve(root, globBase(pattern)));
  }
  for (const file of model.verification?.files ?? []) results.add(path.dirname(file.abs));
  for (const m of model.manifests) {
    trees.add(m.root);
    // A glob may reach outside its root ("../common/**/*.py").
    for (const pattern of m.code_sources) {
      const base = path.resolve(m.root, globBase(pattern));
      // Nothing outside the boundary is walked, so nothing there is watched either.
      if (allowed(m.boundary, realOrResolved(base))) trees.add(base);
    }
  }
  const folders = model.specs.files.map((f) => path.dirname(path.resolve(f)));
  const existing = (dirs: Iterable<string>) => [...dirs].filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory() ?? false);
  return { trees: existing(trees), folders: existing(folders), results: existing(results) };
}
