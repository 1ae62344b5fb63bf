// Whether a definition is an automated test, by its language's conventions.
import path from "node:path";
import type { LoadedLanguage } from "../grammar/runtime.js";
import { type Definition, type DefinitionIndex, isComment, isDecoration, nameText } from "./definitions.js";

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

function isTestClass(definition: Definition, lang: LoadedLanguage, index: DefinitionIndex): boolean {
  const { class: className, base } = lang.test;
  if (definition.kind !== "class") return false;
  if (base !== undefined && definition.bases.some((b) => base.test(b))) return true;
  if (!className?.test(nameText(definition.name))) return false;
  // pytest: a class named Test* is not collected when inside a function or when it has an `__init__`.
  return !insideFunction(definition, lang, index) && !hasMember(definition, lang.test.notWithMember, lang, index);
}

/** Some enclosing definition is not a scope (a function): naming rules make no test there. */
function insideFunction(definition: Definition, lang: LoadedLanguage, index: DefinitionIndex): boolean {
  for (let n = index.nav.parent(definition.node); n; n = index.nav.parent(n)) {
    const enclosing = index.byNode.get(n.id);
    if (enclosing && !lang.scopeKinds.has(enclosing.kind)) return true;
  }
  return false;
}

/** A member of `scope` (a definition whose nearest enclosing definition it is) has a name matching `rule`. */
function hasMember(scope: Definition, rule: RegExp | undefined, _lang: LoadedLanguage, index: DefinitionIndex): boolean {
  if (!rule) return false;
  for (const member of index.byNode.values()) {
    if (member === scope || member.node.startIndex < scope.node.startIndex || member.node.endIndex > scope.node.endIndex) continue;
    if (!rule.test(nameText(member.name))) continue;
    for (let n = index.nav.parent(member.node); n; n = index.nav.parent(n)) {
      const enclosing = index.byNode.get(n.id);
      if (enclosing) {
        if (enclosing === scope) return true;
        break;
      }
    }
  }
  return false;
}

/**
 * The test class a method's scope stands for: the class itself, or for an extension
 * (Swift's `extension ShopTests`), the test class of that name defined in the same file or,
 * when the file doesn't declare it, a type whose name matches the `extendedClass` rule.
 */
function scopeIsTestClass(scope: Definition, lang: LoadedLanguage, index: DefinitionIndex): boolean {
  if (scope.kind === "class") return isTestClass(scope, lang, index);
  if (scope.kind !== "extension") return false;
  const name = nameText(scope.name);
  let declaredHere = false;
  for (const other of index.byNode.values()) {
    if (other.kind !== "class" || nameText(other.name) !== name) continue;
    if (isTestClass(other, lang, index)) return true;
    declaredHere = true;
  }
  // Declared in another file (a scan reads each file alone): its name tells (`...Tests`).
  return !declaredHere && (lang.test.extendedClass?.test(name) ?? false);
}

// speky:speky-ts#SCAN-ISTEST
// speky:speky-ts#GRAM-ISTEST
/**
 * From syntax: a test or suite kind (call-style tests), a test attribute among the
 * definition's decorations, or the language's naming rule (test functions, test methods
 * of test classes or of their extensions, test classes themselves), which a file-name
 * condition may restrict. Naming rules hold only outside functions: like pytest and go test,
 * no runner collects a `test_x` or a `class TestX` defined inside a function.
 */
export function isTest(definition: Definition, scopes: Definition[], index: DefinitionIndex, lang: LoadedLanguage, file: string): boolean {
  if (lang.testKinds.has(definition.kind)) return true;
  if (hasTestAttribute(definition, index, lang)) return true;
  const rule = lang.test;
  if (rule.file && !rule.file.test(path.basename(file))) return false;
  if (insideFunction(definition, lang, index)) return false;
  const name = nameText(definition.name);
  if (definition.kind === "class") return isTestClass(definition, lang, index);
  const scope = scopes.at(-1);
  if (scope?.kind === "class" || scope?.kind === "extension") {
    const callable = definition.kind === "method" || definition.kind === "function";
    return callable && (rule.method?.test(name) ?? false) && scopeIsTestClass(scope, lang, index);
  }
  return definition.kind === "function" && (rule.function?.test(name) ?? false);
}
