// Reads one mapping against its field table (fields.ts): each field's value converted, and a
// message for each missing, mistyped or unknown field. Every field is checked, so one run
// reports every problem of the mapping.
import { DATE_PATTERN, type FieldSpec, type ObjectSpec } from "./fields.js";
import { describe, quoteHint, type SMap, type SNode } from "./node.js";
import type { FileReport } from "./report.js";

/** Field values by name; absent, null-valued and invalid fields are left out. */
export type Fields = Record<string, unknown>;

export function readFields(map: SMap, spec: ObjectSpec, label: string, report: FileReport): Fields {
  const values: Fields = {};
  for (const [name, field] of Object.entries(spec.fields)) {
    if (field.type === "kind") continue;
    const entry = map.entries.get(name);
    if (!entry || (!field.required && isEmpty(entry.value))) {
      if (field.required && !entry) report.error(map, `${label}: missing required field '${name}'`);
      continue;
    }
    const value = readField(entry.value, field, `${label}: '${name}'`, report);
    if (value !== undefined) values[name] = value;
  }
  for (const [key, entry] of map.entries) {
    if (!(key in spec.fields)) report.warning(entry, `${label}: unknown field '${key}' (ignored)`);
  }
  return values;
}

function isEmpty(node: SNode): boolean {
  return node.type === "scalar" && node.tag === "null";
}

/** `what` names the field in messages, e.g. "requirement 'R1': 'tags'". */
function readField(node: SNode, field: FieldSpec, what: string, report: FileReport): unknown {
  const wrong = (expected: string, n: SNode = node, subject = what) => {
    report.error(n, `${subject} must be ${expected}, got ${describe(n)}${quoteHint(n)}`);
    return undefined;
  };
  switch (field.type) {
    case "kind":
      return undefined;
    case "string":
      return node.type === "scalar" && node.tag === "str" ? node.value : wrong("a string");
    case "date": {
      if (node.type !== "scalar" || node.tag !== "str") return wrong("a date written dd/mm/yyyy");
      const problem = dateProblem(node.value as string);
      if (problem) report.error(node, `${what} ${problem}`);
      return problem ? undefined : node.value;
    }
    case "boolean":
      return readBoolean(node, what, report);
    case "strings": {
      if (node.type !== "seq") return wrong("a list of strings");
      const items: string[] = [];
      node.items.forEach((item, i) => {
        if (item.type === "scalar" && item.tag === "str") items.push(item.value as string);
        else wrong("a string", item, `${what} item ${i + 1}`);
      });
      if (field.minItems && node.items.length < field.minItems) report.error(node, `${what} must not be empty`);
      return items.length === node.items.length ? items : undefined;
    }
    case "properties": {
      if (node.type !== "map") return wrong("a mapping of names to strings or integers");
      const properties: Record<string, string | number> = {};
      let valid = true;
      for (const [key, entry] of node.entries) {
        const v = entry.value;
        if (v.type === "scalar" && (v.tag === "str" || v.tag === "int")) properties[key] = v.value as string | number;
        else valid = wrong("a string or an integer", v, `${what}: property '${key}'`) ?? false;
      }
      return valid ? properties : undefined;
    }
    case "object":
      return node.type === "map" ? node : wrong("a mapping");
    case "objects":
      return node.type === "seq" ? node : wrong(`a list of ${field.of.name}s`);
  }
}

/**
 * speky reads `external` as true when it is true, 1, "true", "True" or "1", and false
 * otherwise; we read it the same but say so when it is not a plain boolean.
 */
function readBoolean(node: SNode, what: string, report: FileReport): boolean {
  if (node.type === "scalar" && node.tag === "bool") return node.value as boolean;
  const text = node.type === "scalar" && (node.tag === "str" || node.tag === "int") ? String(node.value) : undefined;
  const value = text === undefined ? undefined : truthOf(text);
  if (value === undefined) {
    report.warning(node, `${what} should be true or false, got ${describe(node)}; read as false, as speky does`);
    return false;
  }
  report.warning(node, `${what} should be true or false, got ${describe(node)}; read as ${value}`);
  return value;
}

/** A CSV cell (or a YAML string) as a boolean, as speky reads it; undefined if unclear. */
export function truthOf(text: string): boolean | undefined {
  if (text === "true" || text === "True" || text === "1") return true;
  if (text === "false" || text === "False" || text === "0" || text === "") return false;
  return undefined;
}

const DATE = new RegExp(DATE_PATTERN);

/**
 * What is wrong with a comment date, as the end of a sentence about the field (e.g.
 * "must be a date written dd/mm/yyyy, got '2025-05-21'"); null when it is a real date.
 */
export function dateProblem(text: string): string | null {
  const m = DATE.exec(text);
  if (!m) return `must be a date written dd/mm/yyyy, got '${text}'`;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1) return `'${text}' is not a date: there is no year 0`;
  if (month < 1 || month > 12) return `'${text}' is not a date: there is no month ${month}`;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (day < 1 || day > days) return `'${text}' is not a date: month ${month} of ${year} has ${days} days`;
  return null;
}
