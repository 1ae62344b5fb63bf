// Whether a definition is an automated test, by its language's conventions.
import path from "node:path";
import { isComment, isDecoration, type Definition, type DefinitionIndex } from "./definitions.js";
import type { LoadedLanguage } from "./runtime.js";
import { nameText } from "./symbol.js";

/** Start of the decorations and comments stacked right before a definition. */
function leadingStart(definition: Definition, lang: LoadedLanguage, index: DefinitionIndex): number {
  let start = definition.outer.startIndex;
  for (let p = index.nav.previousSibling(definition.outer); p; p = index.nav.previousSibling(p)) {
    if (!p.isNamed && p.text.trim() === "") continue;
    if (!isDecoration(p, lang, index) && !isComment(p, lang, index)) break;
    start = p.startIndex;
  }
  return start;
}

function hasTestAttribute(definition: Definition, index: DefinitionIndex, lang: LoadedLanguage): boolean {
  if (index.testAttributes.length === 0) return false;
  const from = leadingStart(definition, lang, index);
  const to = definition.name.startIndex;
  // In text order (definitions.ts): a binary search, not a pass over every test of the file.
  const attributes = index.testAttributes;
  let lo = 0;
  let hi = attributes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (attributes[mid].startIndex < from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < attributes.length && attributes[i].startIndex <= to; i++) if (attributes[i].endIndex <= to) return true;
  return false;
}

function isTestClass(definition: Definition, lang: LoadedLanguage): boolean {
  const { class: className, base } = lang.test;
  if (definition.kind !== "class") return false;
  if (className?.test(nameText(definition.name))) return true;
  return base !== undefined && definition.bases.some((b) => base.test(b));
}

// speky:speky-ts#SCAN-ISTEST
/**
 * From syntax: a test or suite kind (call-style tests), a test attribute among the
 * definition's decorations, or the language's naming rule (test functions, test methods
 * of test classes, test classes themselves), which a file-name condition may restrict.
 */
export function isTest(
  definition: Definition,
  scopes: Definition[],
  index: DefinitionIndex,
  lang: LoadedLanguage,
  file: string,
): boolean {
  if (lang.testKinds.has(definition.kind)) return true;
  if (hasTestAttribute(definition, index, lang)) return true;
  const rule = lang.test;
  if (rule.file && !rule.file.test(path.basename(file))) return false;
  const name = nameText(definition.name);
  if (definition.kind === "class") return isTestClass(definition, lang);
  const scope = scopes.at(-1);
  if (scope?.kind === "class") {
    const callable = definition.kind === "method" || definition.kind === "function";
    return callable && (rule.method?.test(name) ?? false) && isTestClass(scope, lang);
  }
  return definition.kind === "function" && (rule.function?.test(name) ?? false);
}
