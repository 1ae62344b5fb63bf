// Loading: command-line paths (manifests and specification files in any mix), manifests
// followed depth-first into the files and sub-projects they list, every problem collected,
// then the checks that need everything loaded (load-result.ts).

import path from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { type Boundary, boundaryFor } from "../fs/boundary.js";
import { confinementProblem, GlobWalker } from "../fs/globs.js";
import { relieveHeap } from "../heap.js";
import { quote } from "../quote.js";
import type { FailedFile } from "./cause.js";
import type { Collected, FileContext } from "./collect.js";
import { readCommentsCsv, readCommentsFile } from "./comments.js";
import { FileDiagnostics } from "./file-diagnostics.js";
import { readSpecFile } from "./files.js";
import { fileKind } from "./format/file-kind.js";
import { entryOf, type SMap } from "./format/node.js";
import { readItemsFile } from "./items.js";
import { type Loaded, loadResult } from "./load-result.js";
import { readManifest, type Written } from "./manifest.js";
import { StringPool } from "./own-strings.js";
import { Provenance } from "./provenance.js";
import type { GitQuestions } from "./source-links.js";
import type { LoadOptions, LoadResult, Manifest, ReadStamp } from "./types.js";
import { readYaml } from "./yaml/source.js";

/** Files of a pattern read ahead of the one being parsed. */
const READ_AHEAD = 8;

// speky:speky-ts#SPEC-LOAD
/**
 * Loads and validates specification files and manifests. Every problem is reported, sorted;
 * `specs` is null when any of them is an error.
 */
export async function loadSpecs(paths: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const loader = new Loader(options.cwd ?? process.cwd(), options.overlay, options.allowOutside ?? false, options.cite);
  for (const given of paths) await loader.loadGiven(given, false);
  for (const given of options.csvs ?? []) await loader.loadGiven(given, true);
  return loadResult(loader);
}

/** The manifest a file was reached through. */
interface Owner {
  name: string | null;
  root: string;
  report: FileDiagnostics;
  boundary: Boundary | null;
}

interface Reach {
  abs: string;
  display: string;
  owner: Owner | null;
  csv: boolean;
  /** What the paths this file names may reach: its command-line ancestor's boundary. */
  boundary: Boundary | null;
}

class Loader implements Loaded {
  readonly diagnostics: Diagnostic[] = [];
  readonly out: Collected = { items: [], comments: [], references: [], strings: new StringPool() };
  readonly manifests: Manifest[] = [];
  readonly files: string[] = [];
  readonly fileStamps: ReadStamp[] = [];
  /** Real paths of the files loaded: a file reached twice (or through a cycle) loads once. */
  private readonly seen = new Set<string>();
  /** Checks and git look-ups that wait for the end of the load. */
  readonly coverage: { manifest: Manifest; categories: Written[]; report: FileDiagnostics }[] = [];
  readonly links: Promise<void>[] = [];
  /** Git's answers of this load, once a manifest has source_links (src/loader/source-links.ts, loaded lazily). */
  private git: GitQuestions | undefined;
  /** Files with errors: what they would have defined explains errors elsewhere. */
  readonly failed: FailedFile[] = [];
  /** Where items, references and failures came from (provenance.ts). */
  readonly provenance: Provenance;

  /** Spec globs: speky's reach, no ignore files; listings shared by every pattern of the load. */
  private readonly walker = new GlobWalker();

  constructor(
    private readonly cwd: string,
    private readonly overlay: ReadonlyMap<string, string> | undefined,
    private readonly allowOutside: boolean,
    cite: ((absPath: string, display: string) => string) | undefined,
  ) {
    this.provenance = new Provenance(cite);
  }

  /** The file's reading, with its overlay text when it has one. */
  private read(abs: string): ReturnType<typeof readSpecFile> {
    const text = this.overlay?.get(abs);
    const read = readSpecFile(abs);
    return text === undefined ? read : read.then((file) => ("problem" in file ? file : { ...file, text }));
  }

  loadGiven(given: string, csv: boolean): Promise<void> {
    const abs = path.resolve(this.cwd, given);
    // A path on the command line is the user's own: always read, and it sets the boundary.
    const boundary = this.allowOutside ? null : boundaryFor(abs);
    return this.loadFile({ abs, display: given, owner: null, csv, boundary });
  }

  /** Loads a file, unless loaded already; `read` is its reading, when started in advance. */
  private async loadFile(reach: Reach, read = this.read(reach.abs)): Promise<void> {
    const report = new FileDiagnostics(reach.display, this.diagnostics, reach.abs);
    const file = await read;
    if ("problem" in file) {
      report.error(null, file.problem);
      this.provenance.unread.push({ file: reach.display, path: reach.abs });
      return;
    }
    if (this.seen.has(file.real)) return;
    this.seen.add(file.real);
    this.files.push(reach.abs);
    this.fileStamps.push(file.stamp);
    this.provenance.startFile(this.out.items.length, this.out.references.length, reach.abs);
    await this.readContent(reach, file.text, report);
    if (report.errors > 0) this.failed.push({ file: reach.display, text: file.text, path: reach.abs });
  }

  private async readContent(reach: Reach, text: string, report: FileDiagnostics): Promise<void> {
    const ctx: FileContext = { file: reach.display, project: reach.owner?.name ?? null, report, out: this.out };
    const extension = path.extname(reach.abs).toLowerCase();
    if (reach.csv) return readCommentsCsv(text, ctx);
    if (extension === ".csv") {
      report.error(null, "a CSV file holds comments: pass it with -C or list it in a manifest's 'comments_csvs'");
      return;
    }
    // The TOML reader (smol-toml) is loaded for the first TOML file only.
    const root = extension === ".toml" ? (await import("./toml/source.js")).readToml(text, report) : await readYaml(text, report);
    if (root === undefined) return;
    const { kind, map } = fileKind(root, report) ?? {};
    if (!kind || !map) return;
    if (kind === "project") await this.loadManifest(map, reach, report);
    else if (kind === "comments") readCommentsFile(map, ctx);
    else readItemsFile(map, kind, ctx);
  }

  private async loadManifest(map: SMap, reach: Reach, report: FileDiagnostics): Promise<void> {
    const plan = await readManifest(map, reach.abs, report, reach.boundary);
    const manifest: Manifest = {
      name: plan.name ?? "",
      file: reach.display,
      absFile: reach.abs,
      root: plan.root ?? path.dirname(reach.abs),
      coverage_categories: plan.coverage_categories.map((c) => c.text),
      code_sources: plan.code_sources.map((c) => c.text),
      parent: reach.owner?.name ?? null,
    } as Manifest;
    // For the scan, not for output: the boundary names folders of this machine.
    hide(
      manifest,
      "code_source_sites",
      plan.code_sources.map((c) => ({ file: reach.display, line: c.line, column: c.column })),
    );
    hide(manifest, "boundary", reach.boundary);
    // speky:speky-ts#RESULTS-MANIFEST
    // Results are read with the model (src/results); not enumerable, so no output changes without them.
    hide(
      manifest,
      "test_results",
      plan.test_results.map((c) => c.text),
    );
    hide(
      manifest,
      "test_result_sites",
      plan.test_results.map((c) => ({ file: reach.display, line: c.line, column: c.column })),
    );
    const clash = plan.name && this.manifests.find((m) => m.name.toLowerCase() === plan.name!.toLowerCase());
    if (clash) {
      report.error(
        entryOf(map, "name")!.value,
        `project name ${quote(plan.name!)} is already used by ${this.provenance.cite(clash.file, clash.absFile)} (names are matched case-insensitively)`,
      );
    }
    this.manifests.push(manifest);
    this.provenance.addManifest(manifest, report);
    this.coverage.push({ manifest, categories: plan.coverage_categories, report });
    const links = plan.source_links;
    if (links) {
      this.links.push(
        // src/loader/source-links.ts (child_process) is loaded for the first manifest with source_links only.
        // One set of git questions for the whole load: git runs once per repository, not per manifest.
        import("./source-links.js")
          .then(({ GitQuestions, resolveSourceLinks }) => {
            this.git ??= new GitQuestions();
            return resolveSourceLinks(links.url, links.branch, manifest.root, this.git);
          })
          .then((r) => {
            if ("links" in r) {
              manifest.source_links = r.links;
              if (r.warning) report.warning(links, `source_links: ${r.warning}`);
            } else report.warning(links, `source_links: ${r.problem}; code references will have no links`);
          }),
      );
    }
    if (plan.root === null) return;
    // Code sources are walked by the scan; a pattern starting outside the boundary fails the load now.
    for (const pattern of [...plan.code_sources, ...plan.test_results]) {
      const refused = confinementProblem(plan.root, pattern.text, reach.boundary);
      if (refused) report.error(pattern, refused.message);
    }
    const owner: Owner = { name: plan.name, root: plan.root, report, boundary: reach.boundary };
    for (const pattern of plan.files) await this.loadPattern(owner, pattern, false);
    for (const pattern of plan.comments_csvs) await this.loadPattern(owner, pattern, true);
  }

  private async loadPattern(owner: Owner, pattern: Written, csv: boolean): Promise<void> {
    const result = await this.walker.expand(owner.root, pattern.text, { boundary: owner.boundary, ignore: false, folder: null });
    for (const problem of result.problems) {
      if (problem.severity === "error") owner.report.error(pattern, problem.message);
      else owner.report.warning(pattern, problem.message);
    }
    const files = result.files.map((f) => f.abs);
    // Read ahead (reading waits on the disk, parsing on the CPU), then load in order. A few
    // files ahead only: reading all of them first held every text at once (61 MB for 250 files).
    const reads = new Map<number, ReturnType<Loader["read"]>>();
    const readAhead = (i: number) => i < files.length && reads.set(i, this.read(files[i]));
    for (let i = 0; i < READ_AHEAD; i++) readAhead(i);
    for (const [i, abs] of files.entries()) {
      readAhead(i + READ_AHEAD);
      const read = reads.get(i)!;
      reads.delete(i);
      await this.loadFile({ abs, display: displayPath(owner.root, abs), owner, csv, boundary: owner.boundary }, read);
      relieveHeap();
    }
  }
}

/** A path as displayed: relative to the manifest root, `/`-separated. */
function displayPath(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join("/");
}

/** A property that JSON and the model's serialisations leave out. */
function hide<T extends object, K extends keyof T>(object: T, key: K, value: T[K]): void {
  Object.defineProperty(object, key, { value, enumerable: false });
}
