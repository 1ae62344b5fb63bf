// A cache file's paths as read (cache-file.ts): the bytes of one section, a path per line,
// decoded one at a time when asked. A warm scan stats every cached file by its path: a string
// made for that stat and dropped dies young, where the strings of a whole split live as long
// as the scan (on a VM each fresh 4 KB page of memory costs a fault of ~10 µs).
import { isAscii, isUtf8 } from "node:buffer";

const NEWLINE = 0x0a;
const SLASH = 0x2f;

export class PathColumn {
  private list: string[] | undefined;

  /**
   * `starts[i]`: where path i starts; it ends one byte before starts[i + 1] (its newline, or the
   * end). Plain ASCII (most trees) decodes byte for byte, into one-byte strings.
   */
  private constructor(
    private readonly bytes: Buffer,
    private readonly starts: Uint32Array,
    private readonly encoding: "latin1" | "utf8",
  ) {}

  /**
   * The column of `count` paths in `bytes`, or why it is not one: a path per line, none empty,
   * no NUL, valid UTF-8.
   */
  static of(bytes: Buffer, count: number): PathColumn | string {
    const starts = new Uint32Array(count + 1);
    const column = () => new PathColumn(bytes, starts, isAscii(bytes) ? "latin1" : "utf8");
    if (count === 0) return bytes.length === 0 ? column() : "path count is wrong";
    let at = 0;
    for (let i = 0; i < count; i++) {
      if (at > bytes.length) return "path count is wrong";
      starts[i] = at;
      const end = bytes.indexOf(NEWLINE, at);
      at = end < 0 ? bytes.length + 1 : end + 1;
    }
    if (at !== bytes.length + 1) return "path count is wrong";
    starts[count] = at;
    if (bytes[0] === NEWLINE || bytes[bytes.length - 1] === NEWLINE || bytes.includes("\n\n") || bytes.includes(0)) {
      return "a path is invalid";
    }
    if (!isUtf8(bytes)) return "a path is invalid";
    return column();
  }

  get length(): number {
    return this.starts.length - 1;
  }

  /** Path i, as a new string (or the one kept by `all`). */
  at(i: number): string {
    return this.list ? this.list[i] : this.bytes.toString(this.encoding, this.starts[i], this.starts[i + 1] - 1);
  }

  /** Every path, decoded once and kept (a lookup by key, the cache written again). */
  all(): string[] {
    if (!this.list) {
      const list = new Array<string>(this.length);
      for (let i = 0; i < list.length; i++) list[i] = this.at(i);
      this.list = list;
    }
    return this.list;
  }

  /** Whether every path of rows [from, from + count) starts with `prefix` (its UTF-8 bytes), told on the bytes. */
  allStartWith(from: number, count: number, prefix: Uint8Array): boolean {
    const { bytes, starts } = this;
    for (let i = from; i < from + count; i++) {
      const start = starts[i];
      if (starts[i + 1] - 1 - start < prefix.length) return false;
      for (let k = 0; k < prefix.length; k++) if (bytes[start + k] !== prefix[k]) return false;
    }
    return true;
  }

  /** Whether no path is absolute or has a `..` part (`/` separators), told on the bytes. */
  plain(): boolean {
    const bytes = this.bytes;
    if (bytes[0] === SLASH || bytes.includes("\n/")) return false;
    for (let at = bytes.indexOf(".."); at >= 0; at = bytes.indexOf("..", at + 1)) {
      const before = at === 0 ? NEWLINE : bytes[at - 1];
      const after = at + 2 === bytes.length ? NEWLINE : bytes[at + 2];
      if ((before === NEWLINE || before === SLASH) && (after === NEWLINE || after === SLASH)) return false;
    }
    return true;
  }
}
