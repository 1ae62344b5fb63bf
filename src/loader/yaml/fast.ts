// A line-based reader for the plain block-style YAML that specification files are written
// in. The `yaml` package is exact but reads only a few MB/s; this reads the common subset an
// order of magnitude faster and produces the very same tree. On anything outside the subset
// (anchors, tags, flow mappings, multi-line quotes, odd keys, tabs, duplicate keys, ...) it
// gives up and the caller falls back to the full parser, which also reports syntax errors:
// giving up is always safe, guessing never is. test/spec/spec-yaml-fast.test.ts checks it against
// the full parser on generated documents. Its lines and block scalars are fast-lines.ts's, the
// syntax it recognises within a line fast-syntax.ts's.
import { entryOf, type SMap, type SNode, type SSeq, scalar } from "../format/node.js";
import { YamlLines } from "./fast-lines.js";
import {
  AFTER_QUOTE,
  DOCUMENT_START,
  EMPTY_FLOW_MAP,
  emptyMap,
  giveUp,
  isIndicator,
  isSeqEntry,
  keyEnd,
  NOT_SIMPLE,
  plainEnd,
  quoted,
  skipSpaces,
  unsupported,
} from "./fast-syntax.js";
import { plainScalar, plainTag, unconstructibleTag } from "./scalars.js";

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

class SimpleYaml extends YamlLines {
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
