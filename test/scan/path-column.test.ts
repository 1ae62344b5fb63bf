// A cache file's path column (src/scan/cache/path-column.ts): the lines of one section, ASCII or
// not, sliced on demand; anything but a path per line is refused with a reason.
import { describe, expect, it } from "vitest";
import { PathColumn } from "../../src/scan/cache/path-column.js";

const column = (text: string | Buffer, count: number) => PathColumn.of(Buffer.isBuffer(text) ? text : Buffer.from(text), count);

function paths(text: string, count: number): PathColumn {
  const read = column(text, count);
  if (typeof read === "string") throw new Error(read);
  return read;
}

describe("a cache file's path column", () => {
  // speky:speky-ts#TSCAN-CACHE
  it("gives each path, one or several bytes a character, and tests them as a whole", () => {
    for (const list of [
      ["a.py", "b/c.ts", "d/e/f.rs"],
      ["café.py", "日本/x.ts", "smile-\u{1F600}.rs"],
    ]) {
      const read = paths(list.join("\n"), list.length);
      expect(read.length).toBe(list.length);
      expect(list.map((_, i) => read.at(i))).toEqual(list);
      expect(read.all()).toEqual(list);
      expect(read.plain()).toBe(true);
    }
    const read = paths("src/a.py\nsrc/日本.py\nsrcx/b.py", 3);
    expect(read.allStartWith(0, 2, "src/")).toBe(true);
    expect(read.allStartWith(0, 3, "src/")).toBe(false);
    expect(read.allStartWith(1, 1, "src/日")).toBe(true);
    expect(paths("", 0).length).toBe(0);
  });

  it("tells a column with an absolute path or a `..` part", () => {
    expect(paths("a.py\n/etc/passwd", 2).plain()).toBe(false);
    expect(paths("a.py\nb/../c.py", 2).plain()).toBe(false);
    expect(paths("..\nb.py", 2).plain()).toBe(false);
    expect(paths("a..b/c.py\n.hidden/..x", 2).plain()).toBe(true);
  });

  it("refuses a wrong count, an empty path, a NUL and bytes that are not UTF-8", () => {
    expect(column("a\nb", 3)).toBe("path count is wrong");
    expect(column("a\nb\nc", 2)).toBe("path count is wrong");
    expect(column("a", 0)).toBe("path count is wrong");
    expect(column("a\n\nb", 3)).toBe("a path is invalid");
    expect(column("a\n", 2)).toBe("a path is invalid");
    expect(column("a\0b\nc", 2)).toBe("a path is invalid");
    expect(column(Buffer.from([0x61, 0x0a, 0xc3, 0x28]), 2)).toBe("a path is invalid");
  });
});
