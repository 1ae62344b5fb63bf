// One syntax tree per open source buffer, reparsed incrementally after each change (the
// changed span found by comparing texts), so that a keystroke costs a small reparse instead
// of a whole parse: completion asks whether the cursor is in a comment, diagnostics scan it.
import path from "node:path";
import type { Point, Tree } from "web-tree-sitter";
import { MAX_PARSE_BYTES } from "../scan/engine/index.js";
import { languageForPath, languageForShebang, languageRow } from "../scan/grammar/languages.js";
import { type LoadedLanguage, loadLanguage } from "../scan/grammar/runtime.js";

export interface Parsed {
  text: string;
  tree: Tree;
  lang: LoadedLanguage;
}

function pointAt(text: string, index: number): Point {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  let row = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) row++;
  return { row, column: index - lineStart };
}

/** The one span that differs between two texts. */
function editBetween(before: string, after: string) {
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < max - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  const oldEnd = before.length - tail;
  const newEnd = after.length - tail;
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}

export class DocumentTrees {
  private readonly docs = new Map<string, Parsed>();

  /**
   * The tree of a buffer's text; null when the scanner would not parse it as it stands
   * (no grammar, a grammar with a fallback, too large): callers then scan it whole.
   */
  async parse(uri: string, abs: string, text: string): Promise<Parsed | null> {
    const id = languageForPath(abs) ?? languageForShebang(text);
    if (!id || languageRow(id).fallback?.[path.extname(abs).toLowerCase()] || text.length > MAX_PARSE_BYTES) {
      this.close(uri);
      return null;
    }
    const lang = await loadLanguage(id);
    const old = this.docs.get(uri);
    if (old && old.lang === lang && old.text === text) return old;
    let tree: Tree | null;
    if (old && old.lang === lang) {
      old.tree.edit(editBetween(old.text, text));
      tree = lang.parser.parse(text, old.tree);
    } else {
      tree = lang.parser.parse(text);
    }
    old?.tree.delete();
    this.docs.delete(uri);
    if (!tree) return null;
    const parsed = { text, tree, lang };
    this.docs.set(uri, parsed);
    return parsed;
  }

  close(uri: string): void {
    this.docs.get(uri)?.tree.delete();
    this.docs.delete(uri);
  }
}

/**
 * Whether the text at `index` is in a comment: true or false from the tree alone; null when
 * it is in a string, which may be a docstring or a comment by query (the scanner decides).
 */
export function inComment(parsed: Parsed, index: number): boolean | null {
  for (let node = parsed.tree.rootNode.descendantForIndex(index, index); node; node = node.parent) {
    if (parsed.lang.comments.has(node.type)) return true;
    if (parsed.lang.strings.has(node.type)) return null;
  }
  return false;
}
