// The JSON document `speky scan` prints (schema/scan.schema.json).
import { type Diagnostic, lineSafeJson } from "../diagnostics.js";
import type { CodeReference, ScanResult, ScanStats } from "./types.js";

export interface ScanOutput {
  version: 1;
  references: (CodeReference & { path?: string })[];
  diagnostics: (Diagnostic & { path?: string })[];
  stats: ScanStats;
}

/**
 * A reference's or a diagnostic's file from the repository root (the `path` beside speky's
 * manifest-relative `file`), when the command knows the manifests' roots.
 */
export interface RepositoryPath {
  reference(ref: CodeReference): string | undefined;
  diagnostic(d: Diagnostic): string | undefined;
}

const NO_PATHS: RepositoryPath = { reference: () => undefined, diagnostic: () => undefined };

/** Fixed key order, so the printed JSON is byte-identical across runs. */
export function scanOutput(result: ScanResult, repositoryPath: RepositoryPath = NO_PATHS): ScanOutput {
  return {
    version: 1,
    references: result.references.map((r) => ({
      project: r.project,
      id: r.id,
      file: r.file,
      ...optionalPath(repositoryPath.reference(r)),
      line: r.line,
      column: r.column,
      ...(r.end_line === undefined ? {} : { end_line: r.end_line }),
      tag_line: r.tag_line,
      tag_column: r.tag_column,
      symbol: r.symbol,
      kind: r.kind,
      is_test: r.is_test,
      language: r.language,
      ...(r.url === undefined ? {} : { url: r.url }),
    })),
    diagnostics: result.diagnostics.map((d) => ({
      file: d.file,
      ...optionalPath(repositoryPath.diagnostic(d)),
      line: d.line,
      column: d.column,
      severity: d.severity,
      message: d.message,
    })),
    stats: { ...result.stats },
  };
}

const optionalPath = (p: string | undefined) => (p === undefined ? {} : { path: p });

export function formatScanOutput(result: ScanResult, repositoryPath?: RepositoryPath): string {
  return `${lineSafeJson(JSON.stringify(scanOutput(result, repositoryPath), null, 2))}\n`;
}
