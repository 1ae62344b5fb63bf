// A line-based reader for the plain block-style YAML that specification files are written
// in. The `yaml` package is exact but reads only a few MB/s; this reads the common subset an
// order of magnitude faster and produces the very same tree. On anything outside the subset
// (anchors, tags, flow mappings, multi-line quotes, odd keys, tabs, duplicate keys, ...) it
// gives up and the caller falls back to the full parser, which also reports syntax errors:
// giving up is always safe, guessing never is. test/spec/spec-yaml-fast.test.ts checks it against
// the full parser on generated documents.
import { entryOf, type SMap, type SNode, type SSeq, scalar } from "../format/node.js";
import { plainScalar, plainTag, unconstructibleTag, unescapeDoubleQuoted } from "./scalars.js";

class NotSimple extends Error {}
const NOT_SIMPLE = new NotSimple();
function giveUp(): never {
  throw NOT_SIMPLE;
}

/**
 * Characters, any one of which sends the whole file to the full parser: a lone carriage
 * return is looked for apart, only in a text that has one (one pattern with both, an
 * alternation, took 1.4 times as long on the bench's spec files).
 */
const UNSUPPORTED_CHARS = /[\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\u2028\u2029\ufeff]/;
const LONE_CR = /\r(?!\n)/;
const unsupported = (text: string) => UNSUPPORTED_CHARS.test(text) || (text.includes("\r") && LONE_CR.test(text));
/** Characters that cannot start a plain scalar here (YAML indicators), by char code. */
const INDICATOR = new Uint8Array(128);
for (const c of "&*!%@`,[]{}#|>'\"?:") INDICATOR[c.charCodeAt(0)] = 1;
const isIndicator = (code: number) => code < 128 && INDICATOR[code] === 1;
const AFTER_QUOTE = /^(?: +(?:#.*)?)?$/;
const BLOCK_HEADER = /^[|>][+-]?(?: +(?:#.*)?)?$/;
const EMPTY_FLOW_MAP = /^\{ *\}(?: +(?:#.*)?)?$/;
const DOCUMENT_START = /^---(?: +(?:#.*)?)?$/;
/** Entries of a map looked through for a duplicate key; past them, a set of its keys. */
const SMALL_MAP = 16;

/**
 * The tree of a simple YAML document; null for a document without content; undefined when
 * the document is outside the subset (the caller must use the full parser).
 */
export function parseSimpleYaml(text: string): SNode | null | undefined {
  if (unsupported(text)) return undefined;
  try {
    return new SimpleYaml(text).document();
  } catch (e) {
    // Nesting deep enough to exhaust the stack is for the full parser to report.
    if (e === NOT_SIMPLE || e instanceof RangeError) return undefined;
    throw e;
  }
}

class SimpleYaml {
  private readonly lines: string[];
  private readonly n: number;
  private readonly endsWithBreak: boolean;
  /** Leading spaces of each line. */
  private readonly indents: Int32Array;
  /** Index of the next line not consumed yet. */
  private i = 0;

  constructor(text: string) {
    this.lines = text.includes("\r") ? text.split(/\r?\n/) : text.split("\n");
    this.endsWithBreak = text.endsWith("\n");
    // Text ending with a line break does not start another line.
    if (this.lines.length > 1 && this.lines[this.lines.length - 1] === "") this.lines.pop();
    this.n = this.lines.length;
    this.indents = new Int32Array(this.n);
    for (let i = 0; i < this.n; i++) {
      const line = this.lines[i];
      let k = 0;
      while (line.charCodeAt(k) === 32) k++;
      this.indents[i] = k;
    }
  }

  document(): SNode | null {
    let i = this.skipBlankAndComments(0);
    if (i < this.n && DOCUMENT_START.test(this.lines[i])) i++;
    i = this.nextContent(i);
    if (i >= this.n) return null;
    this.i = i;
    const root = this.block(this.indents[i]);
    if (this.nextContent(this.i) < this.n) giveUp();
    return root;
  }

  private skipBlankAndComments(i: number): number {
    while (i < this.n) {
      const line = this.lines[i];
      const k = this.indents[i];
      if (k < line.length && line.charCodeAt(k) !== 35 /* # */) {
        if (line.charCodeAt(0) === 37 /* % */) giveUp();
        return i;
      }
      i++;
    }
    return i;
  }

  /** Index of the next line with content, from line i. */
  private nextContent(i: number): number {
    i = this.skipBlankAndComments(i);
    if (i < this.n) {
      const line = this.lines[i];
      if (line.startsWith("---") || line.startsWith("...")) giveUp();
    }
    return i;
  }

  /** The collection starting on line this.i at column col. */
  private block(col: number): SNode {
    const line = this.lines[this.i];
    if (isSeqEntry(line, col)) return this.seq(col, false);
    return keyEnd(line, col) >= 0 ? this.map(col) : giveUp();
  }

  private map(col: number): SMap {
    const node: SMap = { type: "map", entries: [], line: this.i + 1, column: col + 1 };
    // speky:speky-ts#SEC-YAML-KEYS
    // Keys seen, once the map is past a few (a scan of the entries per key was quadratic:
    // 80,000 keys in one mapping took 15 s, issue 25); small maps, nearly all, scan.
    let keys: Set<string> | undefined;
    for (let first = true; ; first = false) {
      if (!first) {
        const i = this.nextContent(this.i);
        if (i >= this.n) break;
        const k = this.indents[i];
        if (k < col) break;
        if (k > col) giveUp();
        this.i = i;
      }
      const line = this.lines[this.i];
      const end = keyEnd(line, col);
      if (end < 0) giveUp();
      const key = line.slice(col, end);
      if (key.endsWith(" ") || plainTag(key) !== "str") giveUp();
      if (keys) {
        if (keys.has(key)) giveUp();
        keys.add(key);
      } else if (entryOf(node, key) !== undefined) giveUp();
      else if (node.entries.length === SMALL_MAP) keys = new Set([...node.entries.map((e) => e.key), key]);
      const keyLine = this.i + 1;
      const value = this.value(skipSpaces(line, end + 1), col, true) ?? scalar("null", null, keyLine, col + 1, "");
      node.entries.push({ key, value, line: keyLine, column: col + 1 });
    }
    return node;
  }

  private seq(col: number, indentless: boolean): SSeq {
    const node: SSeq = { type: "seq", items: [], line: this.i + 1, column: col + 1 };
    for (;;) {
      const i = this.nextContent(this.i);
      if (i >= this.n) break;
      const line = this.lines[i];
      const k = this.indents[i];
      if (k < col) break;
      if (k > col) giveUp();
      if (!isSeqEntry(line, col)) {
        if (indentless) break;
        giveUp();
      }
      const c = skipSpaces(line, col + 1);
      // Empty entries and nested compact sequences are rare: leave them to the full parser.
      if (c >= line.length || line.charCodeAt(c) === 35 /* # */ || isSeqEntry(line, c)) giveUp();
      this.i = i;
      const item = keyEnd(line, c) >= 0 ? this.map(c) : this.value(c, col, false);
      node.items.push(item ?? giveUp());
    }
    return node;
  }

  /**
   * The value starting at column col of line this.i, in a collection indented by
   * parentIndent; null when the line holds no value (the caller decides what that means).
   * Leaves this.i on the first line after the value.
   */
  private value(col: number, parentIndent: number, inMap: boolean): SNode | null {
    const li = this.i;
    const line = this.lines[li];
    const c = line[col];
    if (c === undefined || c === "#") {
      const j = this.nextContent(li + 1);
      if (j < this.n) {
        const k = this.indents[j];
        if (k > parentIndent) {
          this.i = j;
          return this.block(k);
        }
        if (inMap && k === parentIndent && isSeqEntry(this.lines[j], k)) {
          this.i = j;
          return this.seq(k, true);
        }
      }
      this.i = li + 1;
      return null;
    }
    if (c === "|" || c === ">") return this.blockScalar(col, parentIndent);
    this.i = li + 1;
    if (c === "[") return this.flowSeq(line, li + 1, col);
    if (c === "{") return EMPTY_FLOW_MAP.test(line.slice(col)) ? emptyMap(li + 1, col + 1) : giveUp();
    if (c === '"' || c === "'") {
      const [value, end] = quoted(line, col);
      if (!AFTER_QUOTE.test(line.slice(end))) giveUp();
      return scalar("str", value, li + 1, col + 1);
    }
    if (isIndicator(line.charCodeAt(col)) || isSeqEntry(line, col)) giveUp();
    return this.plain(line, li + 1, col, parentIndent);
  }

  /** A plain scalar, folding continuation lines indented deeper than parentIndent. */
  private plain(line: string, ln: number, col: number, parentIndent: number): SNode {
    const end = plainEnd(line, col);
    let text = line.slice(col, end).trimEnd();
    if (end === line.length) {
      let blank = 0;
      for (let j = this.i; j < this.n; j++) {
        const next = this.lines[j];
        const k = this.indents[j];
        if (k === next.length) {
          blank++;
          continue;
        }
        if (k <= parentIndent) break;
        if (isIndicator(next.charCodeAt(k)) || isSeqEntry(next, k) || plainEnd(next, k) !== next.length) giveUp();
        text += (blank ? "\n".repeat(blank) : " ") + next.slice(k).trimEnd();
        blank = 0;
        this.i = j + 1;
      }
    }
    if (unconstructibleTag(text)) giveUp();
    return plainScalar(text, ln, col + 1);
  }

  private blockScalar(col: number, parentIndent: number): SNode {
    const ln = this.i + 1;
    const header = this.lines[this.i].slice(col);
    if (!BLOCK_HEADER.test(header)) giveUp();
    const folded = header[0] === ">";
    const chomp = header[1] === "-" || header[1] === "+" ? header[1] : "";
    let j = this.i + 1;
    let leadingBlank = 0;
    while (j < this.n && this.indents[j] === this.lines[j].length) {
      leadingBlank = Math.max(leadingBlank, this.lines[j].length);
      j++;
    }
    if (j >= this.n) giveUp();
    const indent = this.indents[j];
    if (indent <= parentIndent || leadingBlank > indent) giveUp();
    const first = this.i + 1;
    const body: string[] = [];
    let last = -1;
    for (j = first; j < this.n; j++) {
      const line = this.lines[j];
      const k = this.indents[j];
      if (k === line.length) {
        // Spaces past the indentation on a blank line are content: rare, and subtle.
        if (k > indent) giveUp();
        // The `yaml` package ignores spaces after the last line break.
        if (j < this.n - 1 || this.endsWithBreak) body.push("");
        continue;
      }
      if (k < indent) break;
      // Folding treats more-indented lines specially: leave those to the full parser.
      if (folded && k > indent) giveUp();
      body.push(line.slice(indent));
      last = j;
    }
    this.i = j;
    const content = body.slice(0, last - first + 1);
    // Like PyYAML, no break after a last line that the file ends without one.
    const finalBreak = last < this.n - 1 || this.endsWithBreak ? 1 : 0;
    const breaks = chomp === "+" ? finalBreak + body.length - content.length : chomp === "" ? finalBreak : 0;
    // Joined with its final breaks in one go: a flat string, not a concatenation to keep.
    const text = folded ? fold(content) + "\n".repeat(breaks) : content.concat(Array(breaks).fill("")).join("\n");
    return scalar("str", text, ln, col + 1);
  }

  private flowSeq(line: string, ln: number, col: number): SSeq {
    const node: SSeq = { type: "seq", items: [], line: ln, column: col + 1 };
    let i = skipSpaces(line, col + 1);
    if (line[i] !== "]") {
      for (;;) {
        const start = i;
        const c = line[i];
        if (c === '"' || c === "'") {
          const [value, end] = quoted(line, start);
          node.items.push(scalar("str", value, ln, start + 1));
          i = skipSpaces(line, end);
        } else {
          while (i < line.length && line[i] !== "," && line[i] !== "]") i++;
          const text = line.slice(start, i).trimEnd();
          if (text === "" || isIndicator(line.charCodeAt(start)) || isSeqEntry(text, 0) || /[[\]{}]|: | #|:$/.test(text)) {
            giveUp();
          }
          if (unconstructibleTag(text)) giveUp();
          node.items.push(plainScalar(text, ln, start + 1));
        }
        if (line[i] === "]") break;
        if (line[i] !== ",") giveUp();
        i = skipSpaces(line, i + 1);
        if (line[i] === "]" || i >= line.length) giveUp();
      }
    }
    if (!AFTER_QUOTE.test(line.slice(i + 1))) giveUp();
    return node;
  }
}

/** A run of simple key characters: [A-Za-z0-9_], then also space, `.`, `/` and `-`. */
const KEY_RUN = /[A-Za-z0-9_][A-Za-z0-9_./ -]*/y;

/**
 * Where the `:` of a simple `key:` starting at col is (followed by a space or the line's end);
 * -1 when col starts no simple key. (Native string search: fast even before JIT warm-up.)
 */
function keyEnd(line: string, col: number): number {
  KEY_RUN.lastIndex = col;
  if (!KEY_RUN.test(line)) return -1;
  const i = KEY_RUN.lastIndex;
  if (line.charCodeAt(i) !== 58) return -1;
  return i + 1 === line.length || line.charCodeAt(i + 1) === 32 ? i : -1;
}

function skipSpaces(line: string, i: number): number {
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

function isSeqEntry(line: string, col: number): boolean {
  return line.charCodeAt(col) === 45 /* - */ && (col + 1 === line.length || line.charCodeAt(col + 1) === 32);
}

function emptyMap(line: number, column: number): SMap {
  return { type: "map", entries: [], line, column };
}

/** End of a plain scalar's text on this line: the start of a comment, or the line's end. */
function plainEnd(line: string, start: number): number {
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
function quoted(line: string, col: number): [string, number] {
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

/** Folded block scalar lines: single breaks become spaces, blank lines become breaks. */
function fold(lines: string[]): string {
  let i = 0;
  let out = "";
  while (lines[i] === "") {
    out += "\n";
    i++;
  }
  out += lines[i];
  let blank = 0;
  for (i++; i < lines.length; i++) {
    if (lines[i] === "") blank++;
    else {
      out += (blank ? "\n".repeat(blank) : " ") + lines[i];
      blank = 0;
    }
  }
  return out;
}
