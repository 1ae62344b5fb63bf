// Reads one mapping against its field table (fields.ts): each field's value converted, and a
// message for each missing, mistyped or unknown field. Every field is checked, so one run
// reports every problem of the mapping.

import { quote } from "../../quote.js";
import { suggestName } from "../../text/suggest.js";
import type { FileDiagnostics } from "../file-diagnostics.js";
import { DATE_PATTERN, type FieldSpec, type ObjectSpec } from "./fields.js";
import { describe, entryOf, isNull, quoteHint, type SMap, type SNode, type SScalar } from "./node.js";

/** Field values by name; absent, null-valued and invalid fields are left out. */
export type Fields = Record<string, unknown>;

export function readFields(map: SMap, spec: ObjectSpec, label: string, report: FileDiagnostics): Fields {
  const values: Fields = {};
  let known = 0;
  for (const name in spec.fields) {
    const field = spec.fields[name];
    const entry = entryOf(map, name);
    if (entry) known++;
    // `kind` chose the spec: nothing more to read.
    if (field.type === "kind") continue;
    if (!entry || (!field.required && isNull(entry.value))) {
      if (field.required && !entry) report.error(map, `${label}: missing required field '${name}'`);
      continue;
    }
    const value = readField(entry.value, field, label, name, report);
    if (value !== undefined) values[name] = value;
  }
  // Keys are unique: when every key is a field, there is nothing more to look at.
  if (known < map.entries.length) {
    for (const entry of map.entries) {
      if (!Object.hasOwn(spec.fields, entry.key)) {
        const likely = suggestName(entry.key, Object.keys(spec.fields));
        report.warning(entry, `${label}: unknown field ${quote(entry.key)} (ignored)${likely ? `; did you mean ${quote(likely)}?` : ""}`);
      }
    }
  }
  return values;
}

function wrong(report: FileDiagnostics, node: SNode, subject: string, expected: string): undefined {
  report.error(node, `${subject} must be ${expected}, got ${describe(node)}${quoteHint(node)}`);
  return undefined;
}

const plural = (noun: string) => (noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`);

const isText = (node: SNode) => node.type === "scalar" && node.tag === "str";

/**
 * The value of field `name` of the mapping `label` names. Messages are built on errors only:
 * this runs for every field of every item.
 */
function readField(node: SNode, field: FieldSpec, label: string, name: string, report: FileDiagnostics): unknown {
  switch (field.type) {
    case "kind":
      return undefined;
    case "string":
      return isText(node) ? (node as SScalar).value : wrong(report, node, `${label}: '${name}'`, "a string");
    case "date": {
      if (!isText(node)) {
        // An unquoted 2025-03-14 is a YAML or TOML date: say how speky's format writes it (in
        // quotes it would be the next error). No quoting hint: a quoted number is no date either.
        const iso = node.type === "scalar" && node.tag === "timestamp" ? isoDateOf(node) : null;
        const hint = iso ? `; write it ${report.file.toLowerCase().endsWith(".toml") ? `"${iso}"` : iso}` : "";
        report.error(node, `${label}: '${name}' must be a date written dd/mm/yyyy, got ${describe(node)}${hint}`);
        return undefined;
      }
      const problem = dateProblem((node as SScalar).value as string);
      if (problem) report.error(node, `${label}: '${name}' ${problem}`);
      return problem ? undefined : (node as SScalar).value;
    }
    case "boolean":
      return readBoolean(node, `${label}: '${name}'`, report);
    case "strings":
      return readStrings(node, field, `${label}: '${name}'`, report);
    case "properties":
      return readProperties(node, label, name, report);
    case "object":
      return node.type === "map" ? node : wrong(report, node, `${label}: '${name}'`, "a mapping");
    case "objects":
      return node.type === "seq" ? node : wrong(report, node, `${label}: '${name}'`, `a list of ${field.of.name}s`);
  }
}

function readStrings(node: SNode, field: FieldSpec & { type: "strings" }, what: string, report: FileDiagnostics) {
  if (node.type !== "seq") return wrong(report, node, what, `a list of ${plural(field.of)}`);
  let valid = true;
  for (let i = 0; i < node.items.length; i++) {
    const item = node.items[i];
    if (!isText(item)) {
      wrong(report, item, `${what} item ${i + 1}`, "a string");
      valid = false;
    }
  }
  if (field.minItems && node.items.length < field.minItems) {
    report.error(node, `${what} must list at least ${field.minItems === 1 ? "one" : field.minItems} ${field.of}`);
  }
  return valid ? node.items.map((item) => (item as SScalar).value as string) : undefined;
}

function readProperties(node: SNode, label: string, name: string, report: FileDiagnostics) {
  if (node.type !== "map") {
    return wrong(report, node, `${label}: '${name}'`, "a mapping of names to strings or integers");
  }
  const properties: Record<string, string | number> = {};
  let valid = true;
  for (const { key, value: v } of node.entries) {
    if (v.type === "scalar" && (v.tag === "str" || v.tag === "int")) properties[key] = v.value as string | number;
    else {
      wrong(report, v, `${label}: property ${quote(key)}`, "a string or an integer");
      valid = false;
    }
  }
  return valid ? properties : undefined;
}

/**
 * speky reads `external` as true when it is true, 1, "true", "True" or "1", and false
 * otherwise; we read it the same but say so when it is not a plain boolean.
 */
function readBoolean(node: SNode, what: string, report: FileDiagnostics): boolean {
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
// speky:speky-ts#SPEC-DATE-HINT
export function dateProblem(text: string): string | null {
  const m = DATE.exec(text);
  if (!m) {
    const other = otherDateForm(text);
    return `must be a date written dd/mm/yyyy, got ${quote(text)}${other ? `; write it ${other}` : ""}`;
  }
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const problem = calendarProblem(day, month, year);
  if (problem === null) return null;
  // 03/14/2025 is month/day/year: the swapped date is a real one.
  const swapped = calendarProblem(month, day, year) === null ? `; if it is month/day/year, write it ${ddmmyyyy(month, day, year)}` : "";
  return `${quote(text)} is not a date: ${problem}${swapped}`;
}

function calendarProblem(day: number, month: number, year: number): string | null {
  if (year < 1) return "there is no year 0";
  if (month < 1 || month > 12) return `there is no month ${month}`;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (day < 1 || day > days) return `month ${month} of ${year} has ${days} days`;
  return null;
}

const ddmmyyyy = (day: number, month: number, year: number) =>
  `${String(day).padStart(2, "0")}/${String(month).padStart(2, "0")}/${String(year).padStart(4, "0")}`;

// 2025-03-14 (ISO, maybe with a time), 2025/03/14, 14-03-2025, 14.03.2025.
const YEAR_FIRST = /^([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})(?:[T ][0-9:.]+(?:Z|[+-][0-9:]+)?)?$/;
const DAY_FIRST = /^([0-9]{1,2})[-.]([0-9]{1,2})[-.]([0-9]{4})$/;

/** The dd/mm/yyyy form of a date written another common way (a real date only), or null. */
function otherDateForm(text: string): string | null {
  const iso = YEAR_FIRST.exec(text.trim());
  const dayFirst = iso ? null : DAY_FIRST.exec(text.trim());
  const [day, month, year] = iso
    ? [Number(iso[3]), Number(iso[2]), Number(iso[1])]
    : dayFirst
      ? [Number(dayFirst[1]), Number(dayFirst[2]), Number(dayFirst[3])]
      : [0, 0, 0];
  return (iso || dayFirst) && calendarProblem(day, month, year) === null ? ddmmyyyy(day, month, year) : null;
}

/** dd/mm/yyyy of a YAML or TOML date value (as written, when the reader kept it), or null. */
function isoDateOf(node: SScalar): string | null {
  const written = node.raw ?? (node.value instanceof Date && !Number.isNaN(node.value.getTime()) ? node.value.toISOString() : "");
  return otherDateForm(written.slice(0, 10));
}
