// The lines the fast reader (fast.ts) reads, their indentation and how far it has read; and the
// block scalars (`|`, `>`), whose text is whole lines taken as they are.
import { type SNode, scalar } from "../format/node.js";
import { BLOCK_HEADER, giveUp } from "./fast-syntax.js";

export class YamlLines {
  protected readonly lines: string[];
  protected readonly n: number;
  protected readonly endsWithBreak: boolean;
  /** Leading spaces of each line. */
  protected readonly indents: Int32Array;
  /** Index of the next line not consumed yet. */
  protected i = 0;

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

  protected skipBlankAndComments(i: number): number {
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
  protected nextContent(i: number): number {
    i = this.skipBlankAndComments(i);
    if (i < this.n) {
      const line = this.lines[i];
      if (line.startsWith("---") || line.startsWith("...")) giveUp();
    }
    return i;
  }

  protected blockScalar(col: number, parentIndent: number): SNode {
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
