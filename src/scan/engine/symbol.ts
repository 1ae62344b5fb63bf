// Qualified names: a definition's name prefixed by its enclosing scopes.
import type { Node } from "web-tree-sitter";
import type { LoadedLanguage } from "../grammar/runtime.js";
import type { Definition, DefinitionIndex } from "./definitions.js";

const QUOTED = /^(["'`])([\s\S]*)\1$/;

/** Test titles are string literals: their quotes are not part of the name. */
export function nameText(node: Node): string {
  const text = node.text.replace(/\s+/g, " ").trim();
  const quoted = QUOTED.exec(text);
  return quoted ? quoted[2] : text;
}

/** The last definition enclosing its following siblings (`namespace Shop;`) before `node`. */
function precedingScope(node: Node, index: DefinitionIndex): Definition | undefined {
  if (index.following.length === 0) return undefined;
  const parent = index.nav.parent(node)?.id;
  let found: Definition | undefined;
  for (const scope of index.following) {
    if (scope.outer.startIndex >= node.startIndex) break;
    if (index.nav.parent(scope.outer)?.id === parent) found = scope;
  }
  return found;
}

/**
 * Enclosing scope definitions, outermost first. A function's body is a world of its own:
 * what is defined there is named from inside it, not as a member of the function's class.
 * Besides ancestors, a definition that encloses its following siblings encloses what comes
 * after it at its level, up to the next one (which it doesn't enclose).
 */
export function enclosingScopes(definition: Definition, index: DefinitionIndex, lang: LoadedLanguage): Definition[] {
  const scopes: Definition[] = [];
  for (let child = definition.node, n = index.nav.parent(child); n; child = n, n = index.nav.parent(n)) {
    // Such a definition ends the previous one rather than being enclosed by it.
    const own = child === definition.node && definition.enclosesFollowing;
    const preceding = own ? undefined : precedingScope(child, index);
    if (preceding) scopes.unshift(preceding);
    const enclosing = index.byNode.get(n.id);
    if (!enclosing) continue;
    if (!lang.scopeKinds.has(enclosing.kind)) break;
    scopes.unshift(enclosing);
  }
  return scopes;
}

function localName(definition: Definition, lang: LoadedLanguage): string {
  const separator = definition.qualifierSeparator ?? lang.row.separator;
  return [...definition.qualifiers, definition.name].map(nameText).join(separator);
}

export function qualifiedName(definition: Definition, scopes: Definition[], lang: LoadedLanguage): string {
  let name = "";
  for (const part of [...scopes, definition]) {
    name = name ? name + (part.separator ?? lang.row.separator) + localName(part, lang) : localName(part, lang);
  }
  return name;
}
