// The two lexical skips both TOML passes need (depth.ts before parsing, positions.ts
// after it): one definition, so that the passes cannot disagree on where a string or a blank ends.

/**
 * The index just past the string literal (basic, literal, or their multi-line forms) starting
 * at `i`, or -1 where it does not end, or a one-line string meets a line break.
 */
export function stringEnd(t: string, i: number): number {
  const q = t[i];
  const triple = t.startsWith(q.repeat(3), i);
  i += triple ? 3 : 1;
  for (;;) {
    if (i >= t.length) return -1;
    const c = t[i];
    if (q === '"' && c === "\\") {
      i += 2;
      continue;
    }
    if (!triple && (c === "\n" || c === "\r")) return -1;
    if (triple ? t.startsWith(q.repeat(3), i) : c === q) break;
    i++;
  }
  i += triple ? 3 : 1;
  // A multi-line string may end with up to two quotes of its own before its delimiter.
  for (let extra = 0; triple && extra < 2 && t[i] === q; extra++) i++;
  return i;
}

/** The first index at or after `i` that is not a space, a tab, a comment or (with `newlines`) a line break. */
export function blankEnd(t: string, i: number, newlines: boolean): number {
  for (;;) {
    const c = t[i];
    if (c === " " || c === "\t" || (newlines && (c === "\n" || c === "\r"))) i++;
    else if (c === "#") {
      while (i < t.length && t[i] !== "\n") i++;
    } else return i;
  }
}
