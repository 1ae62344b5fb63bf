// A cache file's paths as read (cache-file.ts): one section of the file, a path per line,
// decoded once into one string; a path is a slice of it, made when asked. A warm scan stats every
// cached file by its path: a slice made for that stat and dropped dies young, where the strings
// of a whole split live as long as the scan (on a VM each fresh 4 KB page of memory costs a fault
// of ~10 µs). One string rather than the bytes: finding the lines and slicing them stays in
// JavaScript (a Buffer's indexOf and toString cross into C++ per call), and the bench tree's
// 25,402 paths were found and sliced in 13-17 ms instead of 27-33 (3 fresh processes each,
// 2026-12-04).
import { isAscii, isUtf8 } from "node:buffer";

/** Whether no path of a list (one per line) is absolute or has a `..` part (`/` separators): one test of the whole list. */
export const plainPaths = (lines: string) => !/(?:^|\n)\/|(?:^|\n|\/)\.\.(?:\/|\n|$)/.test(lines);

export class PathColumn {
  private list: string[] | undefined;

  /** `starts[i]`: where path i starts in `text`; it ends one before starts[i + 1] (its newline, or the end). */
  private constructor(
    private readonly text: string,
    private readonly starts: Uint32Array,
  ) {}

  /**
   * The column of `count` paths in `bytes`, or why it is not one: valid UTF-8, a path per line,
   * none empty, no NUL.
   */
  static of(bytes: Buffer, count: number): PathColumn | string {
    if (!isUtf8(bytes)) return "a path is invalid";
    // Plain ASCII (most trees) decodes byte for byte into a one-byte string.
    const utf8 = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
    const starts = new Uint32Array(count + 1);
    if (count === 0) return utf8.length === 0 ? new PathColumn(utf8, starts) : "path count is wrong";
    let at = 0;
    for (let i = 0; i < count; i++) {
      if (at > utf8.length) return "path count is wrong";
      starts[i] = at;
      const end = utf8.indexOf("\n", at);
      at = end < 0 ? utf8.length + 1 : end + 1;
    }
    if (at !== utf8.length + 1) return "path count is wrong";
    starts[count] = at;
    if (utf8.startsWith("\n") || utf8.endsWith("\n") || utf8.includes("\n\n") || utf8.includes("\0")) return "a path is invalid";
    return new PathColumn(utf8, starts);
  }

  get length(): number {
    return this.starts.length - 1;
  }

  /** Path i (or the string kept by `all`). */
  at(i: number): string {
    return this.list ? this.list[i] : this.text.slice(this.starts[i], this.starts[i + 1] - 1);
  }

  /** Every path, each a string of its own, kept (a lookup by key, the cache written again). */
  all(): string[] {
    if (!this.list) {
      const list = new Array<string>(this.length);
      for (let i = 0; i < list.length; i++) list[i] = this.at(i);
      this.list = list;
    }
    return this.list;
  }

  /** Whether every path of rows [from, from + count) starts with `prefix`, told without slicing them. */
  allStartWith(from: number, count: number, prefix: string): boolean {
    const { text, starts } = this;
    for (let i = from; i < from + count; i++) {
      if (starts[i + 1] - 1 - starts[i] < prefix.length || !text.startsWith(prefix, starts[i])) return false;
    }
    return true;
  }

  /** Whether no path is absolute or has a `..` part (plainPaths, on the whole column at once). */
  plain(): boolean {
    return plainPaths(this.text);
  }
}
