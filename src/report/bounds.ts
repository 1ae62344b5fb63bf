// What one page of the report may hold. A repository decides how many items it has, how long
// their texts are and how many links each makes: 100 tests each naming 1,000 requirements
// with 6 KB titles built one 600 MB string for one page and ended in `RangeError: Invalid
// string length` (issue 25). Pages are now written piece by piece (site.ts), and each bound
// below keeps what one piece, one list and one page hold to a size a browser can show.

/** Entries of one list in an item's view (validates, refers to, tests, code, comments); then a count. */
export const LIST_ITEMS = 500;
/** IDs in one cell of a list page (a test's requirements, a requirement's tests in the matrix). */
export const CELL_ITEMS = 50;
/** Characters of a title shown anywhere but its own item's view; then `…`. */
export const TITLE_CHARS = 300;
/** Characters of a requirement's text in the index's search data. */
export const SEARCH_TEXT_CHARS = 4_000;
/** Characters of steps shown with the tests in one requirement's view; past them, tests are links. */
export const STEPS_CHARS = 1_000_000;
/** Rows of one section of the problems page (`speky check` lists them all). */
export const PROBLEM_ROWS = 10_000;

/** `text` cut at `max` characters (never inside a surrogate pair), with `…` when cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = text.charCodeAt(max - 1) >= 0xd800 && text.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** The first `max` of a list, and how many were left out. */
export function firstOf<T>(list: readonly T[], max: number): { shown: readonly T[]; more: number } {
  return list.length <= max ? { shown: list, more: 0 } : { shown: list.slice(0, max), more: list.length - max };
}
