// Load specs, then scan the code sources of every manifest, then merge: the pipeline that
// the CLI and the MCP server share. Data flows one way: spec → scan → model.
import { compareDiagnostics, type Diagnostic } from "../diagnostics.js";
import { loadSpecs } from "../loader/load.js";
import type { LoadOptions, Manifest, SpecSet } from "../loader/types.js";
import { type ResultsSources, resultsGiven } from "../results/sources.js";
import type { ScanOptions } from "../scan/scan.js";
import type { ScanTarget } from "../scan/types.js";
import { Turns } from "../turns.js";
import { buildModel, type Model } from "./model.js";

export interface ModelResult {
  /** null when the specs have errors. */
  model: Model | null;
  /** Loader errors and warnings, sorted (scanner diagnostics live in the model). */
  diagnostics: Diagnostic[];
}

export function scanTargets(manifests: readonly Manifest[], ignore = true): ScanTarget[] {
  return manifests.map((m) => ({
    project: m.name,
    root: m.root,
    patterns: m.code_sources,
    sites: m.code_source_sites,
    sitesPath: m.absFile,
    boundary: m.boundary,
    ignore,
    ...(m.source_links ? { source_links: m.source_links } : {}),
  }));
}

export interface ModelOptions extends LoadOptions {
  /** Restrict the scan to these absolute file paths (pre-commit mode); undefined: scan everything. */
  onlyFiles?: string[];
  /** Use the persistent scan cache (src/scan/cache/cache.ts); default true, false for `--no-cache`. */
  cache?: boolean;
  /** Hears why the scan cache was not used or not written (--verbose). */
  cacheNote?: (line: string) => void;
  /** Skip git-ignored code sources; default true, false for `--no-ignore`. */
  ignore?: boolean;
  /** `--results` globs of JUnit XML files, relative to `cwd` (added to the manifests' test_results). */
  results?: string[];
}

/** How a long-running process scans: sharing its thread, reporting progress (src/live). */
export type ScanHooks = Pick<ScanOptions, "cooperative" | "onProgress" | "afterWalk">;

/** The scan of loaded specs' code sources, merged into their model. */
export async function scanSpecs(specs: SpecSet, options: ModelOptions = {}, hooks: ScanHooks = {}): Promise<Model> {
  // Loaded when first needed: the MCP server answers `initialize` before its scan starts.
  const { scan } = await import("../scan/scan.js");
  const scanned = await scan(scanTargets(specs.manifests, options.ignore ?? true), {
    ...hooks,
    onlyFiles: options.onlyFiles,
    cache: options.cache ?? true,
    cacheNote: options.cacheNote,
  });
  return withResults(buildModel(specs, scanned), options, hooks.cooperative === true);
}

/** Where a model's results come from: its manifests' test_results and the command line's globs. */
export function resultsSources(specs: SpecSet, options: ModelOptions): ResultsSources {
  return {
    manifests: specs.manifests,
    globs: options.results ?? [],
    cwd: options.cwd ?? process.cwd(),
    allowOutside: options.allowOutside,
  };
}

// speky:speky-ts#RESULTS-MODEL
/** The model with its verification when results are given; else the model itself, unchanged. */
export async function withResults(model: Model, options: ModelOptions, cooperative = false): Promise<Model> {
  const sources = resultsSources(model.specs, options);
  if (!resultsGiven(sources)) return model;
  // Loaded only when results are given: a tree without them never loads the XML parser.
  const [{ readResults }, { withVerification }] = await Promise.all([import("../results/read-results.js"), import("./verification.js")]);
  return withVerification(model, await readResults(sources), new Turns(cooperative));
}

export async function loadModel(paths: string[], options: ModelOptions = {}, hooks: ScanHooks = {}): Promise<ModelResult> {
  const loaded = await loadSpecs(paths, options);
  if (!loaded.specs) return { model: null, diagnostics: loaded.diagnostics };
  return {
    model: await scanSpecs(loaded.specs, options, hooks),
    diagnostics: [...loaded.diagnostics].sort(compareDiagnostics),
  };
}
