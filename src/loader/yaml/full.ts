// YAML through the `yaml` package, for what the fast reader leaves: its AST is walked directly
// so that every node keeps its line and column. Loaded only when needed (yaml/source.ts). The
// package's errors and warnings are reported here; PyYAML's refusal of tabs is misplaced-tab.ts,
// the walk ast-converter.ts.
import { type Document, LineCounter, parseDocument, visit, type YAMLError } from "yaml";
import type { FileDiagnostics } from "../file-diagnostics.js";
import type { Pos, SNode } from "../format/node.js";
import { AliasBomb, AstConverter, BadAlias, LocatedError, MAX_YAML_ALIASES } from "./ast-converter.js";
import { misplacedTab } from "./misplaced-tab.js";
import { YAML_OPTIONS } from "./scalars.js";

function yamlMessage(message: string): string {
  const first = message.split("\n")[0];
  return first.startsWith("Maximum call stack size exceeded") ? "the document is nested too deeply" : first;
}

/** Where the quoted scalar that runs up to offset `end` opens, if there is one. */
function unclosedQuoteStart(doc: Document.Parsed, end: number): number | undefined {
  let start: number | undefined;
  visit(doc, {
    Scalar(_, node) {
      const quoted = node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE";
      if (quoted && node.range && node.range[1] >= end) start = node.range[0];
    },
  });
  return start;
}

/** readYaml through the `yaml` package only (the reference the fast reader is tested against). */
export function readYamlFully(text: string, report: FileDiagnostics): SNode | null | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter });
  const pos = (offset: number): Pos => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  // Later errors mostly follow from the first: report that one, as precisely as we can.
  const first = doc.errors.reduce<YAMLError | undefined>((a, e) => (!a || e.pos[0] < a.pos[0] ? e : a), undefined);
  if (first) {
    const opening = first.code === "MISSING_CHAR" ? unclosedQuoteStart(doc, first.pos[0]) : undefined;
    if (opening !== undefined) report.error(pos(opening), "YAML syntax error: this quoted string is never closed");
    else if (first.code === "MULTIPLE_DOCS") {
      report.error(pos(first.pos[0]), "a specification file holds a single YAML document (found a second '---')");
    } else report.error(pos(first.pos[0]), `YAML syntax error: ${yamlMessage(first.message)}`);
    return undefined;
  }
  // PyYAML's safe_load refuses tags it does not know, so speky does: so do we.
  // `!!float 1` and `!!null x` are not unknown to PyYAML: it constructs them (see AstConverter.scalar()).
  const unknownTags = doc.warnings.filter((w) => w.code === "TAG_RESOLVE_FAILED" && !/tag:yaml\.org,2002:(?:float|null)\b/.test(w.message));
  for (const w of unknownTags) {
    report.error(pos(w.pos[0]), `YAML: ${yamlMessage(w.message)} (speky refuses unknown tags)`);
  }
  if (unknownTags.length > 0) return undefined;
  const tab = misplacedTab(text);
  if (tab !== undefined) {
    report.error(
      pos(tab),
      "YAML syntax error: a tab character cannot start a token (PyYAML, which speky reads YAML with, " +
        "refuses tabs outside quoted strings, block scalars and comments: use spaces)",
    );
    return undefined;
  }
  for (const w of doc.warnings) {
    if (w.code !== "TAG_RESOLVE_FAILED") report.warning(pos(w.pos[0]), `YAML: ${yamlMessage(w.message)}`);
  }
  try {
    const root = new AstConverter(doc, text, pos, report).convert(doc.contents);
    // A document holding only `~` is as empty as PyYAML sees it.
    return root?.type === "scalar" && root.tag === "null" ? null : root;
  } catch (e) {
    if (e instanceof RangeError) {
      report.error(null, `YAML syntax error: ${yamlMessage(e.message)}`);
      return undefined;
    }
    if (e instanceof BadAlias) {
      report.error(null, `YAML: ${yamlMessage(e.message)}`);
      return undefined;
    }
    if (e instanceof LocatedError) {
      report.error(e.at, e.message);
      return undefined;
    }
    if (!(e instanceof AliasBomb)) throw e;
    report.error(null, `too many YAML alias expansions (limit ${MAX_YAML_ALIASES}): refusing what looks like an alias bomb`);
    return undefined;
  }
}
