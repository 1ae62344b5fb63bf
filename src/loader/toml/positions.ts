// smol-toml gives values but no positions. This walks TOML source that smol-toml has already
// accepted and records where each value (and its key) starts, by path, so that messages about
// a TOML file can cite line and column too. Being for valid input only, it stays small; on
// anything it does not expect it stops, and lookups fall back to the nearest located parent.
import { blankEnd, stringEnd } from "./lex.js";

/** Offsets of a value and of its key (the table header, for a table). */
export interface TomlSpot {
  key: number;
  value: number;
  /** The literal is a float (smol-toml reads `1.0` as the number 1). */
  float: boolean;
}

/** Path segments (keys, array indexes) joined with this character. */
export const PATH_SEP = "\u0000";

const BARE_KEY = /[A-Za-z0-9_-]+/y;
const INTEGER_LITERAL = /^[+-]?[0-9_]+$/;
const FLOAT_LITERAL = /^[+-]?(?:inf|nan|[0-9_]+(?:\.[0-9_]+)?(?:[eE][+-]?[0-9_]+)?)$/;

export function locateToml(text: string): Map<string, TomlSpot> {
  const walker = new Walker(text);
  try {
    walker.document();
  } catch {
    // Unexpected input: keep the spots found so far.
  }
  return walker.spots;
}

class Stop extends Error {}

class Walker {
  readonly spots = new Map<string, TomlSpot>();
  /** Number of entries so far of each array of tables, by resolved path. */
  private readonly tableArrays = new Map<string, number>();
  private i = 0;

  constructor(private readonly text: string) {}

  document(): void {
    let table: string[] = [];
    for (;;) {
      this.skipBlank(true);
      if (this.i >= this.text.length) return;
      const start = this.i;
      if (this.text[start] === "[") {
        const isArray = this.text[start + 1] === "[";
        this.i += isArray ? 2 : 1;
        const keys = this.keys();
        this.i += isArray ? 2 : 1;
        if (isArray) {
          const parent = this.resolve(keys.slice(0, -1));
          parent.push(keys[keys.length - 1]);
          const id = parent.join(PATH_SEP);
          const index = this.tableArrays.get(id) ?? 0;
          this.tableArrays.set(id, index + 1);
          table = [...parent, String(index)];
        } else {
          table = this.resolve(keys);
        }
        this.placeUnplaced(table, start);
      } else {
        const keys = this.keys();
        this.expect("=");
        this.placeUnplaced([...table, ...keys.slice(0, -1)], start);
        this.value([...table, ...keys].join(PATH_SEP), start);
      }
    }
  }

  /** Tables a header or a dotted key defines (or defines implicitly) are where first named. */
  private placeUnplaced(path: string[], at: number): void {
    for (let i = 1; i <= path.length; i++) {
      const id = path.slice(0, i).join(PATH_SEP);
      if (!this.spots.has(id)) this.spots.set(id, { key: at, value: at, float: false });
    }
  }

  /** A header's path, where a key naming an array of tables means its last table. */
  private resolve(keys: string[]): string[] {
    const path: string[] = [];
    for (const key of keys) {
      path.push(key);
      const count = this.tableArrays.get(path.join(PATH_SEP));
      if (count !== undefined) path.push(String(count - 1));
    }
    return path;
  }

  private value(path: string, keyStart: number): void {
    this.skipBlank(false);
    const start = this.i;
    const spot: TomlSpot = { key: keyStart, value: start, float: false };
    this.spots.set(path, spot);
    const c = this.text[start];
    if (c === '"' || c === "'") {
      this.string();
    } else if (c === "[") {
      this.i++;
      for (let index = 0; ; index++) {
        this.skipBlank(true);
        if (this.text[this.i] === "]") break;
        this.value(path + PATH_SEP + index, this.i);
        this.skipBlank(true);
        if (this.text[this.i] === ",") this.i++;
      }
      this.i++;
    } else if (c === "{") {
      this.i++;
      for (;;) {
        this.skipBlank(true);
        if (this.text[this.i] === "}") break;
        const keyStart = this.i;
        const keys = this.keys();
        this.expect("=");
        this.value(path + PATH_SEP + keys.join(PATH_SEP), keyStart);
        this.skipBlank(true);
        if (this.text[this.i] === ",") this.i++;
      }
      this.i++;
    } else {
      while (this.i < this.text.length && !",]}\r\n#".includes(this.text[this.i])) this.i++;
      if (this.i === start) throw new Stop();
      const literal = this.text.slice(start, this.i).trim();
      spot.float = FLOAT_LITERAL.test(literal) && !INTEGER_LITERAL.test(literal);
    }
  }

  /** A dotted key, up to (not including) the `=` or `]` after it. */
  private keys(): string[] {
    const keys: string[] = [];
    for (;;) {
      this.skipBlank(false);
      const c = this.text[this.i];
      if (c === '"' || c === "'") {
        const start = this.i;
        this.string();
        const raw = this.text.slice(start, this.i);
        keys.push(c === "'" ? raw.slice(1, -1) : parseBasicKey(raw));
      } else {
        BARE_KEY.lastIndex = this.i;
        const m = BARE_KEY.exec(this.text);
        if (!m) throw new Stop();
        keys.push(m[0]);
        this.i += m[0].length;
      }
      this.skipBlank(false);
      if (this.text[this.i] !== ".") return keys;
      this.i++;
    }
  }

  /** Skips any string literal starting at this.i. */
  private string(): void {
    const end = stringEnd(this.text, this.i);
    if (end < 0) throw new Stop();
    this.i = end;
  }

  private skipBlank(newlines: boolean): void {
    this.i = blankEnd(this.text, this.i, newlines);
  }

  private expect(c: string): void {
    this.skipBlank(false);
    if (this.text[this.i] !== c) throw new Stop();
    this.i++;
  }
}

function parseBasicKey(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}
