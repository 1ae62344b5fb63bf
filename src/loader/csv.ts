// CSV as Python's csv module reads it by default (the dialect speky uses): comma-separated,
// `"` quotes with `""` inside, line breaks allowed in quoted fields, any of \n, \r\n, \r
// ending a row, blank lines skipped. Every field keeps its position.
import type { Pos } from "./format/node.js";

export interface CsvField extends Pos {
  value: string;
}

export interface CsvResult {
  rows: CsvField[][];
  /** Where a quoted field was left open, if one was. */
  unterminated?: Pos;
}

export function parseCsv(text: string): CsvResult {
  const rows: CsvField[][] = [];
  let row: CsvField[] = [];
  let blank = true;
  let line = 1;
  let lineStart = 0;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;

  const field = (value: string, at: Pos, quoted: boolean) => {
    row.push({ value, ...at });
    blank &&= !quoted && value === "" && row.length === 1;
  };
  const endRow = () => {
    // Python yields no row for a blank line; a row of one empty field needs quotes.
    if (!blank) rows.push(row);
    row = [];
    blank = true;
  };

  while (i < n) {
    const at: Pos = { line, column: i - lineStart + 1 };
    let value = "";
    const quoted = text[i] === '"';
    if (quoted) {
      for (i++; ; i++) {
        if (i >= n) {
          field(value, at, quoted);
          endRow();
          return { rows, unterminated: at };
        }
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] !== '"') break;
          i++;
        } else if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) {
          line++;
          lineStart = i + 1;
        }
        value += c;
      }
      i++;
    }
    // Unquoted text, or text after a closing quote, which Python keeps as is.
    const start = i;
    while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") i++;
    field(value + text.slice(start, i), at, quoted);
    if (text[i] === ",") {
      i++;
      if (i >= n) field("", { line, column: i - lineStart + 1 }, false);
      continue;
    }
    if (text[i] === "\r" && text[i + 1] === "\n") i++;
    i++;
    line++;
    lineStart = i;
    endRow();
  }
  endRow();
  return { rows };
}
