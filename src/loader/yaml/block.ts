// Block scalars (`|`, `>`) valued exactly as PyYAML's scanner values them (scanner.py,
// scan_block_scalar and its helpers, followed step by step). The `yaml` package differs on
// lines of spaces: past the indentation they are content to PyYAML (`|2` then "    " is "  \n"),
// and a last line without a line break gets none. Given the source and the indentation of the
// enclosing block collection (PyYAML's `self.indent`, -1 at the top), returns the value; or
// undefined when the text is not the block scalar expected (the caller keeps its own value).

const BREAKS = "\r\n\u0085\u2028\u2029";
const isBreak = (c: string | undefined) => c !== undefined && BREAKS.includes(c);

// speky:speky-ts#SPEC-YAML-PYYAML
export function pyBlockScalar(text: string, from: number, indent: number): string | undefined {
  // Past any anchor or tag written before the indicator, on the same line.
  let i = from;
  while (i < text.length && text[i] !== "|" && text[i] !== ">" && !isBreak(text[i])) i++;
  if (text[i] !== "|" && text[i] !== ">") return undefined;
  const folded = text[i] === ">";
  const lineStart = Math.max(text.lastIndexOf("\n", i), text.lastIndexOf("\r", i)) + 1;
  let col = i - lineStart + 1;
  i++;

  const forward = (n = 1) => {
    i += n;
    col += n;
  };
  const lineBreak = (): string => {
    const c = text[i];
    if (c === "\r" && text[i + 1] === "\n") {
      i += 2;
    } else if (c === "\r" || c === "\n" || c === "\u0085") {
      i++;
    } else if (c === "\u2028" || c === "\u2029") {
      i++;
      col = 0;
      return c;
    } else return "";
    col = 0;
    return "\n";
  };
  const scanBreaks = (blockIndent: number): string[] => {
    const chunks: string[] = [];
    while (col < blockIndent && text[i] === " ") forward();
    while (isBreak(text[i])) {
      chunks.push(lineBreak());
      while (col < blockIndent && text[i] === " ") forward();
    }
    return chunks;
  };

  // Indicators: chomping and indentation, in either order.
  let chomping: boolean | null = null;
  let increment: number | null = null;
  const digit = (c: string | undefined) => c !== undefined && c >= "1" && c <= "9";
  if (text[i] === "+" || text[i] === "-") {
    chomping = text[i] === "+";
    forward();
    if (digit(text[i])) {
      increment = Number(text[i]);
      forward();
    }
  } else if (digit(text[i])) {
    increment = Number(text[i]);
    forward();
    if (text[i] === "+" || text[i] === "-") {
      chomping = text[i] === "+";
      forward();
    }
  }
  // The rest of the header line: spaces, a comment, the line break.
  while (text[i] === " ") forward();
  if (text[i] === "#") while (i < text.length && !isBreak(text[i])) forward();
  if (i < text.length && !isBreak(text[i])) return undefined;
  lineBreak();

  const minIndent = Math.max(indent + 1, 1);
  let blockIndent: number;
  let breaks: string[];
  if (increment === null) {
    breaks = [];
    let maxIndent = 0;
    while (i < text.length && (text[i] === " " || isBreak(text[i]))) {
      if (text[i] !== " ") breaks.push(lineBreak());
      else {
        forward();
        if (col > maxIndent) maxIndent = col;
      }
    }
    blockIndent = Math.max(minIndent, maxIndent);
  } else {
    blockIndent = minIndent + increment - 1;
    breaks = scanBreaks(blockIndent);
  }

  const chunks: string[] = [];
  let lastBreak = "";
  while (col === blockIndent && i < text.length) {
    chunks.push(...breaks);
    const leadingNonSpace = text[i] !== " " && text[i] !== "\t";
    let end = i;
    while (end < text.length && !isBreak(text[end])) end++;
    chunks.push(text.slice(i, end));
    forward(end - i);
    lastBreak = lineBreak();
    breaks = scanBreaks(blockIndent);
    if (col !== blockIndent || i >= text.length) break;
    if (folded && lastBreak === "\n" && leadingNonSpace && text[i] !== " " && text[i] !== "\t") {
      if (breaks.length === 0) chunks.push(" ");
    } else chunks.push(lastBreak);
  }
  if (chomping !== false) chunks.push(lastBreak);
  if (chomping === true) chunks.push(...breaks);
  return chunks.join("");
}
