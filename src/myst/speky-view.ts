// A code reference as speky's scanner reports it (python/speky/scanner.py), derived from ours.
// speky scans `.py`, `.go`, `.rs` and `.sh` files only, names a definition by its bare name,
// knows fewer kinds of definitions and has one is_test rule per language; for those files the
// pages say what speky says. References in other files (languages speky does not scan) keep
// what our scanner knows. What the model cannot tell is listed in docs/speky-differences.md.
import path from "node:path";
import type { CodeReference } from "../scan/types.js";

export interface SpekyReference {
  id: string;
  /** The tag's project, lower-cased as speky keeps it. */
  project: string;
  /** Absolute path (speky sorts references by it, part by part). */
  absFile: string;
  /** Relative to the root of the tag's manifest, as displayed. */
  file: string;
  line: number;
  language: string;
  symbol: string | null;
  is_test: boolean;
  url: string | null;
}

/** The definition kinds speky's scanner names, per file extension (its _SYMBOL_TYPES). */
const SYMBOL_KINDS: Record<string, ReadonlySet<string>> = {
  ".py": new Set(["function", "method", "class"]),
  ".go": new Set(["function", "method"]),
  ".rs": new Set(["function", "method"]),
  ".sh": new Set(["function"]),
};

/** The bare name of a qualified symbol: what follows its last separator. */
function lastPart(symbol: string, separator: string): string {
  const at = symbol.lastIndexOf(separator);
  return at < 0 ? symbol : symbol.slice(at + separator.length);
}

interface Seen {
  symbol: string | null;
  line: number;
  is_test: boolean;
}

/** speky's symbol, line and is_test for a reference in a file it scans. */
function spekySees(ref: CodeReference, extension: string): Seen {
  const free: Seen = { symbol: null, line: ref.tag_line, is_test: false };
  const base = path.posix.basename(ref.file);
  const start = ref.start_line ?? ref.line;
  const named = ref.symbol !== null && ref.kind !== null && SYMBOL_KINDS[extension].has(ref.kind) ? ref.symbol : null;
  switch (extension) {
    case ".py": {
      if (named === null) return free;
      const name = lastPart(named, ".");
      // A comment above the decorators names the decorated definition, which starts at the
      // first decorator; a docstring names the function itself, which starts at `def`.
      const line = ref.tag_line < start ? start : ref.line;
      return { symbol: name, line, is_test: name.startsWith("test") || name.startsWith("Test") };
    }
    case ".go": {
      const inTestFile = base.endsWith("_test.go");
      if (named === null) return { ...free, is_test: inTestFile };
      const name = lastPart(named, ".");
      return { symbol: name, line: ref.line, is_test: inTestFile || name.startsWith("Test") };
    }
    case ".rs":
      // An attribute between the comment and `fn` ends speky's search: a free reference.
      if (named === null || (ref.tag_line < start && start < ref.line)) return free;
      return { symbol: lastPart(named, "::"), line: ref.line, is_test: ref.is_test };
    default: {
      const inTestFile = base.startsWith("test");
      if (named === null) return { ...free, is_test: inTestFile };
      return { symbol: named, line: ref.line, is_test: inTestFile };
    }
  }
}

// speky:speky-ts#MYST-REFERENCES
export function spekyReference(ref: CodeReference, root: string): SpekyReference {
  const extension = path.posix.extname(ref.file);
  const seen = extension in SYMBOL_KINDS ? spekySees(ref, extension) : { symbol: ref.symbol, line: ref.line, is_test: ref.is_test };
  return {
    id: ref.id,
    project: ref.project.toLowerCase(),
    absFile: path.resolve(root, ref.file),
    file: ref.file,
    line: seen.line,
    language: ref.language,
    symbol: seen.symbol,
    is_test: seen.is_test,
    url: ref.url === undefined ? null : ref.url.replace(/#L\d+$/, `#L${seen.line}`),
  };
}
