// A bound on TOML nesting, checked before smol-toml sees the text. Deep dotted keys
// (`x.x.x…` 50,000 parts) cost smol-toml and our position walker quadratic time and memory and
// overflow the converter's stack; arrays and inline tables nested deeply likewise. This pass is
// one linear, iterative scan: it counts the parts of each table header and key plus the arrays
// and inline tables open around a value, and stops at the first place the sum passes the
// bound. On text it does not understand it stops quietly: syntax errors are smol-toml's to report.
import { blankEnd, stringEnd } from "./lex.js";

/** Nesting levels one value may sit under: headers, dotted keys, arrays and inline tables together. */
export const MAX_TOML_DEPTH = 100;

export interface DepthExcess {
  /** Offset of the key part, `[` or `{` that went past the bound. */
  offset: number;
}

class Stop extends Error {}

// speky:speky-ts#SEC-TOML-DEPTH
export function tomlDepthExcess(text: string): DepthExcess | undefined {
  try {
    new DepthScan(text).document();
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return undefined;
    if (e instanceof Excess) return { offset: e.offset };
    throw e;
  }
}

class Excess extends Error {
  constructor(readonly offset: number) {
    super("excess");
  }
}

const BARE = /[A-Za-z0-9_-]/;

class DepthScan {
  private i = 0;
  constructor(private readonly t: string) {}

  document(): void {
    let table = 0;
    for (;;) {
      this.blank(true);
      if (this.i >= this.t.length) return;
      if (this.t[this.i] === "[") {
        this.i += this.t[this.i + 1] === "[" ? 2 : 1;
        table = this.key(0);
        while (this.t[this.i] === "]") this.i++;
      } else {
        const depth = this.key(table);
        this.blank(false);
        if (this.t[this.i] !== "=") throw new Stop();
        this.i++;
        this.value(depth);
      }
    }
  }

  /** A dotted key; returns `base` plus its parts, failing at the part past the bound. */
  private key(base: number): number {
    let depth = base;
    for (;;) {
      this.blank(false);
      depth++;
      if (depth > MAX_TOML_DEPTH) throw new Excess(this.i);
      const c = this.t[this.i];
      if (c === '"' || c === "'") this.string();
      else {
        const start = this.i;
        while (this.i < this.t.length && BARE.test(this.t[this.i])) this.i++;
        if (this.i === start) throw new Stop();
      }
      this.blank(false);
      if (this.t[this.i] !== ".") return depth;
      this.i++;
    }
  }

  /**
   * A value under `depth` levels, iteratively: a stack of the open arrays and inline tables,
   * each with the depth of what it holds.
   */
  private value(depth: number): void {
    const stack: { close: string; depth: number }[] = [];
    let at = depth;
    let expectKey = false;
    for (;;) {
      this.blank(stack.length > 0);
      const c = this.t[this.i];
      if (c === undefined) throw new Stop();
      if (expectKey && c !== "}") {
        at = this.key(stack[stack.length - 1].depth);
        this.blank(false);
        if (this.t[this.i] !== "=") throw new Stop();
        this.i++;
        expectKey = false;
        continue;
      }
      if (c === "[" || c === "{") {
        if (at + 1 > MAX_TOML_DEPTH) throw new Excess(this.i);
        this.i++;
        stack.push({ close: c === "[" ? "]" : "}", depth: at + 1 });
        at = at + 1;
        expectKey = c === "{";
        continue;
      }
      if (c === "]" || c === "}") {
        if (stack.pop()?.close !== c) throw new Stop();
        this.i++;
      } else if (c === '"' || c === "'") this.string();
      else {
        // A number, date, boolean: up to what ends it.
        const start = this.i;
        while (this.i < this.t.length && !",]}\r\n#".includes(this.t[this.i])) this.i++;
        if (this.i === start) throw new Stop();
      }
      if (stack.length === 0) return;
      this.blank(true);
      const top = stack[stack.length - 1];
      if (this.t[this.i] === ",") {
        this.i++;
        at = top.depth;
        expectKey = top.close === "}";
      } else at = top.depth;
    }
  }

  private string(): void {
    const end = stringEnd(this.t, this.i);
    if (end < 0) throw new Stop();
    this.i = end;
  }

  private blank(newlines: boolean): void {
    this.i = blankEnd(this.t, this.i, newlines);
  }
}
