// Loading: command-line paths (manifests and specification files in any mix), manifests
// followed depth-first into the files and sub-projects they list, every problem collected,
// then the checks that need everything loaded.
import fs from "node:fs";
import path from "node:path";
import { compareDiagnostics, hasErrors, type Diagnostic } from "../diagnostics.js";
import type { Collected, FileContext } from "./collect.js";
import { readCommentsCsv, readCommentsFile } from "./comments.js";
import { KINDS, type Kind } from "./fields.js";
import { resolveSourceLinks } from "./git-links.js";
import { expandGlob } from "./globs.js";
import { readItemsFile } from "./items.js";
import { readManifest, type Written } from "./manifest.js";
import { describe, entryOf, stringValue, type SMap, type SNode } from "./node.js";
import { FileReport } from "./report.js";
import { readToml } from "./toml-source.js";
import type { LoadOptions, LoadResult, Manifest, Requirement, SpecSet, Test } from "./types.js";
import { checkCoverageCategories, validateReferences } from "./validate.js";
import { readYaml } from "./yaml-source.js";

/** Larger files are refused unread: no specification is that big, and parsing one would stall. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

const KIND_LIST = "requirements, tests, comments or project";

// speky:speky-ts#SPEC-LOAD
/**
 * Loads and validates specification files and manifests. Every problem is reported, sorted;
 * `specs` is null when any of them is an error.
 */
export async function loadSpecs(paths: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const loader = new Loader(options.cwd ?? process.cwd());
  for (const given of paths) await loader.loadGiven(given, false);
  for (const given of options.csvs ?? []) await loader.loadGiven(given, true);
  return loader.finish();
}

/** The manifest a file was reached through. */
interface Owner {
  name: string | null;
  root: string;
  report: FileReport;
}

interface Reach {
  abs: string;
  display: string;
  owner: Owner | null;
  csv: boolean;
}

class Loader {
  private readonly diagnostics: Diagnostic[] = [];
  private readonly out: Collected = { items: [], comments: [], references: [] };
  private readonly manifests: Manifest[] = [];
  private readonly files: string[] = [];
  /** Real paths of the files loaded: a file reached twice (or through a cycle) loads once. */
  private readonly seen = new Set<string>();
  /** Checks and git look-ups that wait for the end of the load. */
  private readonly coverage: { manifest: Manifest; categories: Written[]; report: FileReport }[] = [];
  private readonly links: Promise<void>[] = [];

  constructor(private readonly cwd: string) {}

  loadGiven(given: string, csv: boolean): Promise<void> {
    return this.loadFile({ abs: path.resolve(this.cwd, given), display: given, owner: null, csv });
  }

  async finish(): Promise<LoadResult> {
    await Promise.all(this.links);
    validateReferences(this.out, this.diagnostics);
    for (const { manifest, categories, report } of this.coverage) {
      checkCoverageCategories(manifest.name, categories, report, this.out.items);
    }
    const diagnostics = this.diagnostics.sort(compareDiagnostics);
    if (hasErrors(diagnostics)) return { specs: null, diagnostics };
    const specs: SpecSet = {
      requirements: this.out.items.filter((i): i is Requirement => i.kind === "requirement"),
      tests: this.out.items.filter((i): i is Test => i.kind === "test"),
      comments: this.out.comments,
      manifests: this.manifests,
      files: this.files,
      warnings: diagnostics,
    };
    return { specs: deepFreeze(specs), diagnostics: [...diagnostics] };
  }

  private async loadFile(reach: Reach): Promise<void> {
    const report = new FileReport(reach.display, this.diagnostics);
    const real = await fs.promises.realpath(reach.abs).catch((e: NodeJS.ErrnoException) => {
      report.error(null, e.code === "ENOENT" ? "file not found" : `cannot read the file (${e.code ?? e.message})`);
    });
    if (real === undefined || this.seen.has(real)) return;
    this.seen.add(real);
    const text = await readText(reach.abs, report);
    if (text === undefined) return;
    this.files.push(reach.abs);

    const ctx: FileContext = { file: reach.display, project: reach.owner?.name ?? null, report, out: this.out };
    const extension = path.extname(reach.abs).toLowerCase();
    if (reach.csv) return readCommentsCsv(text, ctx);
    if (extension === ".csv") {
      report.error(null, "a CSV file holds comments: pass it with -C or list it in a manifest's 'comments_csvs'");
      return;
    }
    const root = extension === ".toml" ? readToml(text, report) : readYaml(text, report);
    if (root === undefined) return;
    const kind = fileKind(root, report);
    if (kind === undefined) return;
    const map = root as SMap;
    if (kind === "project") await this.loadManifest(map, reach, report);
    else if (kind === "comments") readCommentsFile(map, ctx);
    else readItemsFile(map, kind, ctx);
  }

  private async loadManifest(map: SMap, reach: Reach, report: FileReport): Promise<void> {
    const plan = await readManifest(map, reach.abs, report);
    const manifest: Manifest = {
      name: plan.name ?? "",
      file: reach.display,
      absFile: reach.abs,
      root: plan.root ?? path.dirname(reach.abs),
      coverage_categories: plan.coverage_categories.map((c) => c.text),
      code_sources: plan.code_sources,
      parent: reach.owner?.name ?? null,
    };
    const clash = plan.name && this.manifests.find((m) => m.name.toLowerCase() === plan.name!.toLowerCase());
    if (clash) {
      report.error(
        entryOf(map, "name")!.value,
        `project name '${plan.name}' is already used by ${clash.file} (names are matched case-insensitively)`,
      );
    }
    this.manifests.push(manifest);
    this.coverage.push({ manifest, categories: plan.coverage_categories, report });
    const links = plan.source_links;
    if (links) {
      this.links.push(
        resolveSourceLinks(links.url, links.branch, manifest.root).then((r) => {
          if ("links" in r) manifest.source_links = r.links;
          else report.warning(links, `source_links: ${r.problem}; code references will have no links`);
        }),
      );
    }
    if (plan.root === null) return;
    const owner: Owner = { name: plan.name, root: plan.root, report };
    for (const pattern of plan.files) await this.loadPattern(owner, pattern, false);
    for (const pattern of plan.comments_csvs) await this.loadPattern(owner, pattern, true);
  }

  private async loadPattern(owner: Owner, pattern: Written, csv: boolean): Promise<void> {
    const result = await expandGlob(owner.root, pattern.text);
    if ("error" in result) {
      owner.report.error(pattern, result.error);
      return;
    }
    if (result.warning) owner.report.warning(pattern, result.warning);
    for (const abs of result.files) {
      await this.loadFile({ abs, display: displayPath(owner.root, abs), owner, csv });
    }
  }
}

// speky:speky-ts#SPEC-SAFETY
/** The file's text, unless it is too large to be a specification (checked before reading). */
async function readText(file: string, report: FileReport): Promise<string | undefined> {
  try {
    const stat = await fs.promises.stat(file);
    if (stat.isDirectory()) {
      report.error(null, "this is a directory, not a specification file");
      return undefined;
    }
    if (stat.size > MAX_FILE_BYTES) {
      const mb = (stat.size / (1024 * 1024)).toFixed(1);
      report.error(null, `file is too large (${mb} MB; the limit is ${MAX_FILE_BYTES / (1024 * 1024)} MB)`);
      return undefined;
    }
    return await fs.promises.readFile(file, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    report.error(null, `cannot read the file (${err.code ?? err.message})`);
    return undefined;
  }
}

/** The kind of a parsed file, or undefined (reported) when it has none we know. */
function fileKind(root: SNode | null, report: FileReport): Kind | undefined {
  if (root === null) {
    report.error(null, `empty file (a specification file starts with 'kind': ${KIND_LIST})`);
    return undefined;
  }
  if (root.type !== "map") {
    report.error(root, `the top level must be a mapping with a 'kind', got ${describe(root)}`);
    return undefined;
  }
  const entry = entryOf(root, "kind");
  if (!entry) {
    report.error(root, `missing 'kind' (expected ${KIND_LIST})`);
    return undefined;
  }
  const kind = stringValue(entry.value);
  if (kind === undefined || !(KINDS as readonly string[]).includes(kind)) {
    const got = kind === undefined ? describe(entry.value) : `'${kind}'`;
    report.error(entry.value, `unknown kind ${got} (expected ${KIND_LIST})`);
    return undefined;
  }
  return kind as Kind;
}

/** A path as displayed: relative to the manifest root, `/`-separated. */
function displayPath(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join("/");
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
