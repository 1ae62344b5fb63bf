// Whether a reload found what the served model already holds: the catch-up after the watch is
// set up (live-model.ts) swaps only when it did not, so that a server's start costs its
// clients no reload when nothing changed meanwhile.
import { readStampsOf } from "../loader/load-result.js";
import type { Model } from "../model/model.js";
import type { CodeReference } from "../scan/types.js";

const json = (value: unknown) => JSON.stringify(value);

/** The same spec files, each with the stamp it was read with (size, mtime, ctime). */
function sameSpecFiles(a: Model, b: Model): boolean {
  const files = a.specs.files;
  if (files.length !== b.specs.files.length || files.some((f, i) => f !== b.specs.files[i])) return false;
  const [x, y] = [readStampsOf(a.specs), readStampsOf(b.specs)];
  if (!x || !y) return false;
  return x.every((s, i) => s.size === y[i].size && s.mtimeMs === y[i].mtimeMs && s.ctimeMs === y[i].ctimeMs);
}

function sameReference(a: CodeReference, b: CodeReference): boolean {
  return (
    a.project === b.project &&
    a.id === b.id &&
    a.file === b.file &&
    a.line === b.line &&
    a.column === b.column &&
    a.start_line === b.start_line &&
    a.end_line === b.end_line &&
    a.tag_line === b.tag_line &&
    a.tag_column === b.tag_column &&
    a.symbol === b.symbol &&
    a.kind === b.kind &&
    a.is_test === b.is_test &&
    a.language === b.language &&
    a.url === b.url &&
    (a.outline === b.outline || json(a.outline) === json(b.outline))
  );
}

/** Everything of a verification but its maps' keys (the references, compared apart). */
function verificationText(model: Model): string {
  const v = model.verification;
  if (!v) return "";
  const { files, testcasesRead, testcasesMatched, unmatched, diagnostics } = v;
  return json([
    files,
    testcasesRead,
    testcasesMatched,
    unmatched,
    diagnostics,
    [...v.references.values()],
    [...v.tests],
    [...v.requirements],
  ]);
}

// speky:speky-ts#LIVE-WATCH-CATCH-UP
/** True when `b` serves what `a` does: same spec files unchanged, same code references, findings and results. */
export function sameModel(a: Model, b: Model): boolean {
  if (!sameSpecFiles(a, b)) return false;
  const [x, y] = [a.codeReferences, b.codeReferences];
  if (x.length !== y.length || !x.every((r, i) => sameReference(r, y[i]))) return false;
  const stats = (m: Model) => (m.scanStats ? [m.scanStats.files, m.scanStats.files_with_tags, m.scanStats.tags] : null);
  if (json(stats(a)) !== json(stats(b)) || json(a.scanDiagnostics) !== json(b.scanDiagnostics)) return false;
  return verificationText(a) === verificationText(b);
}
