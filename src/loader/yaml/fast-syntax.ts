// The fast reader's syntax (fast.ts): what it recognises within one line, and giving up on
// anything else, which sends the file to the full parser.
import type { SMap } from "../format/node.js";
import { unescapeDoubleQuoted } from "./scalars.js";

class NotSimple extends Error {}
export const NOT_SIMPLE = new NotSimple();
export function giveUp(): never {
  throw NOT_SIMPLE;
}

/**
 * Characters, any one of which sends the whole file to the full parser: a lone carriage
 * return is looked for apart, only in a text that has one (one pattern with both, an
 * alternation, took 1.4 times as long on the bench's spec files).
 */
const UNSUPPORTED_CHARS = /[\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\u2028\u2029\ufeff]/;
const LONE_CR = /\r(?!\n)/;
export const unsupported = (text: string) => UNSUPPORTED_CHARS.test(text) || (text.includes("\r") && LONE_CR.test(text));
/** Characters that cannot start a plain scalar here (YAML indicators), by char code. */
const INDICATOR = new Uint8Array(128);
for (const c of "&*!%@`,[]{}#|>'\"?:") INDICATOR[c.charCodeAt(0)] = 1;
export const isIndicator = (code: number) => code < 128 && INDICATOR[code] === 1;
export const AFTER_QUOTE = /^(?: +(?:#.*)?)?$/;
export const BLOCK_HEADER = /^[|>][+-]?(?: +(?:#.*)?)?$/;
export const EMPTY_FLOW_MAP = /^\{ *\}(?: +(?:#.*)?)?$/;
export const DOCUMENT_START = /^---(?: +(?:#.*)?)?$/;

/** A run of simple key characters: [A-Za-z0-9_], then also space, `.`, `/` and `-`. */
const KEY_RUN = /[A-Za-z0-9_][A-Za-z0-9_./ -]*/y;

/**
 * Where the `:` of a simple `key:` starting at col is (followed by a space or the line's end);
 * -1 when col starts no simple key. (Native string search: fast even before JIT warm-up.)
 */
export function keyEnd(line: string, col: number): number {
  KEY_RUN.lastIndex = col;
  if (!KEY_RUN.test(line)) return -1;
  const i = KEY_RUN.lastIndex;
  if (line.charCodeAt(i) !== 58) return -1;
  return i + 1 === line.length || line.charCodeAt(i + 1) === 32 ? i : -1;
}

export function skipSpaces(line: string, i: number): number {
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

export function isSeqEntry(line: string, col: number): boolean {
  return line.charCodeAt(col) === 45 /* - */ && (col + 1 === line.length || line.charCodeAt(col + 1) === 32);
}

export function emptyMap(line: number, column: number): SMap {
  return { type: "map", entries: [], line, column };
}

/** End of a plain scalar's text on this line: the start of a comment, or the line's end. */
export function plainEnd(line: string, start: number): number {
  const hash = line.indexOf(" #", start);
  const end = hash < 0 ? line.length : hash + 1;
  // `: ` (or a final `:`) would make the text a mapping key: not a plain scalar.
  const colon = line.indexOf(": ", start);
  let last = end - 1;
  while (line.charCodeAt(last) === 32) last--;
  if ((colon >= 0 && colon < end) || line.charCodeAt(last) === 58) giveUp();
  return end;
}

/** A one-line quoted scalar starting at col: its value and the index just past it. */
export function quoted(line: string, col: number): [string, number] {
  const q = line[col];
  let i = col + 1;
  if (q === "'") {
    for (;;) {
      i = line.indexOf("'", i);
      if (i < 0) giveUp();
      if (line[i + 1] !== "'") break;
      i += 2;
    }
    return [line.slice(col + 1, i).replaceAll("''", "'"), i + 1];
  }
  while (i < line.length && line[i] !== '"') i += line[i] === "\\" ? 2 : 1;
  if (i >= line.length) giveUp();
  const value = unescapeDoubleQuoted(line.slice(col + 1, i));
  return [value ?? giveUp(), i + 1];
}
