// Columns: speky counts 1-based code points, LSP counts 0-based UTF-16 units by default.
// IDs and tags are ASCII, but the text before them on the line may not be.

/** 0-based UTF-16 offset in `line` of the 1-based code-point column `column`. */
export function utf16Column(line: string, column: number): number {
  let units = 0;
  for (let cp = 1; cp < column && units < line.length; cp++) {
    const c = line.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < line.length ? 2 : 1;
  }
  return units;
}

/** 1-based code-point column of the 0-based UTF-16 offset `units` in `line`. */
export function codePointColumn(line: string, units: number): number {
  let column = 1;
  for (let i = 0; i < units && i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < line.length) i++;
    column++;
  }
  return column;
}

/** Lines of a text, broken at "\n" only (as tree-sitter and the spec readers do). */
export function splitLines(text: string): string[] {
  return text.split("\n");
}
