// Comments, from a YAML/TOML comments file (with its `default`) or from a CSV file.

import { quote, shown } from "../quote.js";
import { suggestName } from "../text/suggest.js";
import { type FileContext, locate } from "./collect.js";
import { type CsvField, parseCsv } from "./csv.js";
import { COMMENT, COMMENT_REQUIRED, FILE_SPECS } from "./format/fields.js";
import { describe, entryOf, isNull, type Pos, type SMap, type SNode } from "./format/node.js";
import { dateProblem, type Fields, readFields, truthOf } from "./format/read-fields.js";
import { ownString } from "./own-strings.js";

const COLUMNS = Object.keys(COMMENT.fields);

export function readCommentsFile(root: SMap, ctx: FileContext): void {
  const file = readFields(root, FILE_SPECS.comments, FILE_SPECS.comments.name, ctx.report);
  const defaultMap = file.default as SMap | undefined;
  const defaults = defaultMap ? readFields(defaultMap, COMMENT, "default", ctx.report) : {};
  const list = file.comments as { items: SNode[] } | undefined;
  list?.items.forEach((node, i) => {
    const label = `comment #${i + 1}`;
    if (node.type !== "map") {
      ctx.report.error(node, `${label} must be a mapping, got ${describe(node)}`);
      return;
    }
    const own = readFields(node, COMMENT, label, ctx.report);
    // Presence is judged on what was written, so that a mistyped field is not also "missing".
    const written = (name: string) => givenEntry(node, name) ?? (defaultMap && givenEntry(defaultMap, name));
    const missing = COMMENT_REQUIRED.filter((name) => !written(name));
    for (const name of missing) {
      ctx.report.error(node, `${label}: missing required field '${name}' (set neither here nor in 'default')`);
    }
    if (missing.length > 0) return;
    addComment(ctx, { ...defaults, ...own }, node, written("about")!.value);
  });
}

/** The entry of a field that is set (an empty `date:` is not). */
function givenEntry(map: SMap, name: string) {
  const entry = entryOf(map, name);
  return entry && !isNull(entry.value) ? entry : undefined;
}

export function readCommentsCsv(text: string, ctx: FileContext): void {
  const { rows, unterminated } = parseCsv(text);
  if (unterminated) {
    ctx.report.error(unterminated, `unterminated quoted field: its opening '"' is never closed`);
    return;
  }
  if (rows.length === 0) {
    ctx.report.warning(null, "empty CSV file: no header row, no comments");
    return;
  }
  const [header, ...body] = rows;
  const names = header.map((f) => f.value);
  const missing = COLUMNS.filter((c) => !names.includes(c));
  // The first 20 names, each as written when short and plain (a header may hold a million).
  const named =
    names
      .slice(0, 20)
      .map((n) => shown(n))
      .join(", ") + (names.length > 20 ? `, and ${names.length - 20} more` : "");
  for (const column of missing) {
    ctx.report.error(header[0], `missing required column '${column}' (the header names: ${named})`);
  }
  header.forEach((f) => {
    if (!COLUMNS.includes(f.value)) {
      const likely = suggestName(f.value, COLUMNS);
      ctx.report.warning(f, `unknown column ${quote(f.value)} (ignored)${likely ? `; did you mean ${quote(likely)}?` : ""}`);
    }
  });
  if (missing.length > 0) return;
  for (const row of body) readCsvRow(row, header, ctx);
}

function readCsvRow(row: CsvField[], header: CsvField[], ctx: FileContext): void {
  const counts = `this row has ${row.length} fields but the header names ${header.length}`;
  if (row.length < header.length) {
    ctx.report.error(row[0], counts);
    return;
  }
  if (row.length > header.length) ctx.report.warning(row[header.length], `${counts}; the extra ones are ignored`);
  // As in Python's DictReader, a column named twice takes its last value.
  const cells = new Map<string, CsvField>();
  for (const [i, name] of header.entries()) cells.set(name.value, row[i]);
  const cell = (name: string) => cells.get(name)!;

  const date = cell("date");
  const problem = dateProblem(date.value);
  if (problem) ctx.report.error(date, `'date' ${problem}`);
  const external = cell("external");
  let isExternal = truthOf(external.value);
  if (isExternal === undefined) {
    ctx.report.warning(external, `'external' should be true, false, 1 or 0, got ${quote(external.value)}; read as false, as speky does`);
    isExternal = false;
  }
  if (problem) return;
  const values = { about: cell("about").value, from: cell("from").value, date: date.value, text: cell("text").value };
  addComment(ctx, { ...values, external: isExternal }, row[0], cell("about"));
}

function addComment(ctx: FileContext, f: Fields, at: Pos, aboutAt: Pos): void {
  // Fields with invalid values were reported and left out; the file fails, so any value will do.
  const text = (name: string) => (f[name] as string | undefined) ?? "";
  const { strings } = ctx.out;
  ctx.out.comments.push({
    about: ownString(text("about")),
    date: strings.shared(text("date")),
    from: strings.shared(text("from")),
    text: ownString(text("text")),
    external: (f.external as boolean | undefined) ?? false,
    loc: locate(ctx, at),
  });
  if (f.about !== undefined) {
    ctx.out.references.push({ field: "about", id: f.about as string, ...locate(ctx, aboutAt) });
  }
}
