// The JSON document `speky export` writes (schema/export.schema.json): the whole model at
// once, for tools that want everything: manifests, requirements and tests with their
// cross-references and coverage bucket, comments, code references, the coverage of the
// manifests' scope, and the problems. Keys in a fixed order, lists in a fixed order, nothing
// machine-specific (no absolute path): the same tree gives the same bytes on every machine.
// speky:speky-ts#EXPORT-MODEL
import { compareDiagnostics, compareStrings, type Diagnostic, lineSafeJson } from "../diagnostics.js";
import type { Comment, Manifest, Requirement, SourceLocation, Test } from "../loader/types.js";
import { type CoverageBucket, coverageOf, coverageScope, isAutomated } from "../model/coverage.js";
import type { Model } from "../model/model.js";
import { danglingDiagnostics } from "../model/problems.js";
import {
  type RequirementVerificationView,
  type ResultsMetadata,
  requirementVerificationView,
  resultsMetadata,
  type TestVerificationView,
  testVerificationView,
} from "../model/verification-views.js";
import type { CodeReference } from "../scan/types.js";
import { VERSION } from "../version.js";

export interface ExportOptions {
  /**
   * Verification from test results (docs/verification.md), when results were given:
   * written as the document's `verification` member, which the schema declares optional.
   * Absent: the member is left out and the document is what it was before results existed.
   */
  verification?: ExportedVerification;
  /** A code reference's file from the repository root (its `path`), when the command knows it. */
  repositoryPath?: { reference(ref: CodeReference): string | undefined };
}

const location = (loc: SourceLocation) => ({ file: loc.file, line: loc.line, column: loc.column });

const ids = (items: readonly { id: string }[] | undefined) => [...new Set((items ?? []).map((i) => i.id))].sort(compareStrings);

function manifest(m: Manifest) {
  return {
    name: m.name,
    file: m.file,
    parent: m.parent,
    coverage_categories: [...m.coverage_categories],
    code_sources: [...m.code_sources],
    ...(m.source_links ? { source_links: { url: m.source_links.url, branch: m.source_links.branch } } : {}),
  };
}

function requirement(model: Model, r: Requirement) {
  return {
    id: r.id,
    category: r.category,
    ...(r.short === undefined ? {} : { short: r.short }),
    long: r.long,
    tags: [...r.tags],
    ...(r.client_statement === undefined ? {} : { client_statement: r.client_statement }),
    ...(r.properties === undefined ? {} : { properties: { ...r.properties } }),
    ref: [...r.ref],
    source_file: r.source_file,
    project: r.project,
    location: location(r.loc),
    tested_by: ids(model.testedBy.get(r.id)),
    referenced_by: ids(model.referencedBy.get(r.id)),
    coverage: coverageOf(model, r.id),
  };
}

function test(model: Model, t: Test) {
  return {
    id: t.id,
    category: t.category,
    ...(t.short === undefined ? {} : { short: t.short }),
    long: t.long,
    ...(t.initial === undefined ? {} : { initial: t.initial }),
    ref: [...t.ref],
    prereq: [...t.prereq],
    steps: t.steps.map((s) => ({ ...s })),
    source_file: t.source_file,
    project: t.project,
    location: location(t.loc),
    automated: isAutomated(model, t.id),
  };
}

const comment = (c: Comment) => ({
  about: c.about,
  from: c.from,
  date: c.date,
  text: c.text,
  external: c.external,
  location: location(c.loc),
});

export function codeReference(r: CodeReference, repositoryPath?: string) {
  return {
    project: r.project,
    id: r.id,
    file: r.file,
    ...(repositoryPath === undefined ? {} : { path: repositoryPath }),
    line: r.line,
    column: r.column,
    ...(r.start_line === undefined ? {} : { start_line: r.start_line, end_line: r.end_line }),
    tag_line: r.tag_line,
    tag_column: r.tag_column,
    symbol: r.symbol,
    kind: r.kind,
    is_test: r.is_test,
    language: r.language,
    ...(r.url === undefined ? {} : { url: r.url }),
  };
}

const BUCKETS: readonly CoverageBucket[] = ["automated_test_plan", "partially_manual_test_plan", "manual_test_plan", "no_test_plan"];

function coverage(model: Model) {
  const scope = coverageScope(model) ?? [];
  const buckets = Object.fromEntries(BUCKETS.map((b) => [b, [] as string[]]));
  for (const r of scope) buckets[coverageOf(model, r.id)].push(r.id);
  for (const list of Object.values(buckets)) list.sort(compareStrings);
  return { requirements: scope.length, ...buckets };
}

const diagnostic = (d: Diagnostic) => ({ file: d.file, line: d.line, column: d.column, severity: d.severity, message: d.message });

export interface ExportedVerification {
  results: ResultsMetadata;
  tests: Record<string, TestVerificationView>;
  requirements: Record<string, RequirementVerificationView>;
}

// speky:speky-ts#RESULTS-EXPORT
/** The model's verification as the export writes it (the MCP answers' shapes, by ID), if any. */
export function exportedVerification(model: Model): ExportedVerification | undefined {
  if (!model.verification) return undefined;
  return {
    results: resultsMetadata(model.verification),
    tests: Object.fromEntries(model.specs.tests.map((t) => [t.id, testVerificationView(model, t.id)!])),
    requirements: Object.fromEntries(model.specs.requirements.map((r) => [r.id, requirementVerificationView(model, r.id)!])),
  };
}

export function exportDocument(model: Model, loaderDiagnostics: readonly Diagnostic[], options: ExportOptions = {}) {
  const reference = (r: CodeReference) => codeReference(r, options.repositoryPath?.reference(r));
  const problems = [...danglingDiagnostics(model), ...model.scanDiagnostics, ...loaderDiagnostics].sort(compareDiagnostics);
  return {
    version: 1,
    generator: `speky-ts ${VERSION}`,
    manifests: model.manifests.map(manifest),
    requirements: model.specs.requirements.map((r) => requirement(model, r)),
    tests: model.specs.tests.map((t) => test(model, t)),
    comments: model.specs.comments.map(comment),
    code_references: model.codeReferences.filter((r) => model.byId.has(r.id)).map(reference),
    dangling_references: model.danglingReferences.map(reference),
    coverage: coverage(model),
    problems: problems.map(diagnostic),
    ...(options.verification === undefined ? {} : { verification: options.verification }),
  };
}

export function formatExport(model: Model, loaderDiagnostics: readonly Diagnostic[], options: ExportOptions = {}): string {
  return `${lineSafeJson(JSON.stringify(exportDocument(model, loaderDiagnostics, options), null, 2))}\n`;
}
