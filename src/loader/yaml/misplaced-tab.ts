// The tabs PyYAML refuses, which the `yaml` package lets through: read by full.ts.
import { CST, Lexer } from "yaml";

// speky:speky-ts#SPEC-YAML-PYYAML
/**
 * Offset of the first tab PyYAML's scanner would refuse: its scanner skips only spaces between
 * tokens and ends plain scalars at a tab, so a tab is allowed only inside quoted scalars, block
 * scalar content and comments (`a:\tb` and `a: b\tc` both fail there). Read off the `yaml`
 * package's lexer tokens; undefined when there is none.
 */
export function misplacedTab(text: string): number | undefined {
  if (!text.includes("\t")) return undefined;
  let offset = 0;
  let afterBlockHeader = false;
  let inBlockBody = false;
  let explicitIndent = false;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === "scalar") {
      // The scalar marker: its source follows as the next token.
      inBlockBody = afterBlockHeader;
      afterBlockHeader = false;
      continue;
    }
    if (type === "doc-mode" || type === "flow-error-end") continue;
    if (type === "block-scalar-header") {
      afterBlockHeader = true;
      // With an indentation indicator the body's indentation is not its first line's: PyYAML
      // takes tabs past it as content; left to the `yaml` package's own checks.
      explicitIndent = /[1-9]/.test(token);
    } else if (type !== "space" && type !== "newline" && type !== "comment") afterBlockHeader = false;
    const tab = token.indexOf("\t");
    if (tab >= 0) {
      if (inBlockBody) {
        // Tabs are content past the block's indentation, never part of it.
        const bad = explicitIndent ? undefined : blockIndentTab(token);
        if (bad !== undefined) return offset + bad;
      } else if (type !== "comment" && type !== "single-quoted-scalar" && type !== "double-quoted-scalar") {
        return offset + tab;
      }
    }
    inBlockBody = false;
    offset += token.length;
  }
  return undefined;
}

/**
 * In a block scalar's body, a tab right after the leading spaces of a line indented less than
 * the block (whose indentation the first line with content sets: a tab there is content).
 */
function blockIndentTab(body: string): number | undefined {
  let indent = -1;
  let start = 0;
  for (const line of body.split("\n")) {
    const spaces = line.length - line.replace(/^ +/, "").length;
    const content = spaces < line.length && line[spaces] !== "\r";
    if (indent >= 0 && line[spaces] === "\t" && spaces < indent) return start + spaces;
    if (indent < 0 && content) indent = spaces;
    start += line.length + 1;
  }
  return undefined;
}
