// Messages echo user input (arguments, IDs, file content). One bound for all of them: a
// 1 MB argument must not make a 1 MB message, and a control character in it must not start a
// line of its own in a log or a terminal.
import { escapeControl } from "./diagnostics.js";

/** Longest quoted excerpt, in characters of the escaped text. */
export const QUOTE_MAX = 100;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Number of characters (code points) of a string. */
export function characterCount(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * `'value'` with control characters escaped; when the escaped text is longer than `max`
 * characters, its beginning followed by `…` and the length of the original:
 * `'XXXX…' (1,000,000 characters)`.
 */
// speky:speky-ts#INSTALL-QUOTE
export function quote(value: string, max = QUOTE_MAX): string {
  // Printable ASCII needs no escape: the common case (every item's label quotes its ID) at once.
  if (value.length <= max && PRINTABLE_ASCII.test(value)) return `'${value}'`;
  let out = "";
  let shown = 0;
  for (const ch of value) {
    const escaped = escapeControl(ch);
    // An unescaped character counts one, even when it takes two UTF-16 units.
    const width = escaped === ch ? 1 : escaped.length;
    if (shown + width > max) {
      return `'${out}…' (${plural(characterCount(value), "character")})`;
    }
    out += escaped;
    shown += width;
  }
  return `'${out}'`;
}

/**
 * `1,000`: an integer's digits grouped by threes, as toLocaleString("en-US") writes them
 * without its cost: the first toLocaleString of a process loads ICU's number formats (15 ms
 * of a 0.4 s pre-commit check). Other numbers go to toLocaleString.
 */
export function grouped(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ",") : n.toLocaleString("en-US");
}

/** `1 file`, `2 files`, `1,000 requirements`: English count and noun, grouped digits. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${grouped(n)} ${n === 1 ? singular : pluralForm}`;
}

/**
 * The value as it is when it is short and has no control character (so that the contract's
 * texts, e.g. `Requirement REQ-1 not found`, stay exact); else quoted and bounded.
 */
export function shown(value: string, max = QUOTE_MAX): string {
  const q = quote(value, max);
  return q === `'${value}'` ? value : q;
}
