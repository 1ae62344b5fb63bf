// A manifest (`kind: project`) read into what loading it involves; load.ts carries it out.
import fs from "node:fs";
import path from "node:path";
import { ALLOW_HINT, allowed, BOUNDARY_WORDS, type Boundary, isVirtual } from "../fs/boundary.js";
import { quote } from "../quote.js";
import type { FileDiagnostics } from "./file-diagnostics.js";
import { FILE_SPECS, SOURCE_LINKS } from "./format/fields.js";
import { entryOf, type Pos, type SMap, type SScalar, type SSeq } from "./format/node.js";
import { readFields } from "./format/read-fields.js";

/** A string from a list (a glob, a category), and where it was written. */
export interface Written extends Pos {
  text: string;
}

export interface ManifestPlan {
  /** null when invalid (reported). */
  name: string | null;
  /** Absolute root directory; null when it does not exist (reported). */
  root: string | null;
  files: Written[];
  comments_csvs: Written[];
  code_sources: Written[];
  test_results: Written[];
  coverage_categories: Written[];
  source_links?: Pos & { url: string; branch: string };
}

/** Project names a code tag can name (speky:<project>#<ID>). */
const TAGGABLE_NAME = /^[A-Za-z0-9_.-]+$/;

export async function readManifest(root: SMap, absFile: string, report: FileDiagnostics, boundary: Boundary | null): Promise<ManifestPlan> {
  const spec = FILE_SPECS.project;
  const f = readFields(root, spec, spec.name, report);
  const name = (f.name as string | undefined) ?? null;
  if (name !== null && !TAGGABLE_NAME.test(name)) {
    report.warning(
      entryOf(root, "name")!.value,
      `project name ${quote(name)} cannot be named in a code tag (tags accept letters, digits, '_', '.' and '-')`,
    );
  }
  const plan: ManifestPlan = {
    name,
    root: await rootDirectory(root, absFile, f.root_directory as string | undefined, report, boundary),
    files: patterns(root, "files", f),
    comments_csvs: patterns(root, "comments_csvs", f),
    code_sources: patterns(root, "code_sources", f),
    test_results: patterns(root, "test_results", f),
    coverage_categories: patterns(root, "coverage_categories", f),
  };
  const links = f.source_links as SMap | undefined;
  if (links) {
    const l = readFields(links, SOURCE_LINKS, "source_links", report);
    if (l.url !== undefined) {
      const branch = (l.branch as string | undefined) ?? "auto";
      plan.source_links = { url: l.url as string, branch, line: links.line, column: links.column };
    }
  }
  return plan;
}

async function rootDirectory(map: SMap, absFile: string, written: string | undefined, report: FileDiagnostics, boundary: Boundary | null) {
  const dir = path.resolve(path.dirname(absFile), written ?? ".");
  const at = entryOf(map, "root_directory")?.value ?? map;
  // The root itself may be a link: what counts is where it leads (checked before any stat of it).
  const real = await fs.promises.realpath(dir).catch(() => dir);
  if (!allowed(boundary, real) || isVirtual(real)) {
    report.error(at, `root directory ${quote(written ?? ".")} is outside ${BOUNDARY_WORDS} (${ALLOW_HINT})`);
    return null;
  }
  const stat = await fs.promises.stat(dir).catch(() => undefined);
  if (stat?.isDirectory()) return dir;
  report.error(at, `root directory ${quote(written ?? ".")} not found`);
  return null;
}

/** The strings of a valid list field, each with its position. */
function patterns(map: SMap, field: string, values: Record<string, unknown>): Written[] {
  if (values[field] === undefined) return [];
  const list = entryOf(map, field)!.value as SSeq;
  return list.items.map((item) => ({ text: (item as SScalar).value as string, line: item.line, column: item.column }));
}
