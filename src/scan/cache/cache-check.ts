// Validation of a cache file's fields (cache-file.ts): a reason, or null when a value is what
// its type says.
import { endianness } from "node:os";
import type { RawDiagnostic, RawTag } from "../engine/tag.js";
import { FORMAT, FORMAT_VERSION } from "./cache-key.js";

type Check = (x: unknown) => string | null;

export const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
export const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
const isTime = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const orNull = (ok: (x: unknown) => boolean) => (x: unknown) => x === null || ok(x);
export const isString = (x: unknown): x is string => typeof x === "string";

/** Fields of an object, each with its test: the first failing one is named. */
function fields(what: string, tests: Record<string, (x: unknown) => boolean>): Check {
  const list = Object.entries(tests);
  return (x) => {
    if (!isObject(x)) return `${what} is not an object`;
    for (const [name, ok] of list) if (!ok(x[name])) return `${what}.${name} is invalid`;
    return null;
  };
}

const isSpan = (x: unknown) => Array.isArray(x) && x.length === 2 && isCount(x[0]) && isCount(x[1]);
const optional = (ok: (x: unknown) => boolean) => (x: unknown) => x === undefined || ok(x);

const checkTag = fields("tag", {
  line: isCount,
  column: isCount,
  tag_line: isCount,
  tag_column: isCount,
  project: isString,
  id: isString,
  symbol: orNull(isString),
  kind: orNull(isString),
  is_test: (x) => typeof x === "boolean",
  reference: (x) => typeof x === "boolean",
  warning: orNull(isString),
  span: optional(isSpan),
} satisfies Record<keyof RawTag, (x: unknown) => boolean>);

const checkDiagnostic = fields("diagnostic", {
  line: isCount,
  column: isCount,
  message: isString,
} satisfies Record<keyof RawDiagnostic, (x: unknown) => boolean>);

function checkResult(x: unknown): string | null {
  if (!isObject(x)) return "result is not an object";
  if (!orNull(isString)(x.language)) return "result.language is invalid";
  if (!Array.isArray(x.tags) || !Array.isArray(x.diagnostics)) return "result lists are invalid";
  for (const tag of x.tags) {
    const why = checkTag(tag);
    if (why) return why;
  }
  for (const d of x.diagnostics) {
    const why = checkDiagnostic(d);
    if (why) return why;
  }
  if (x.outline !== undefined) {
    const o = x.outline;
    if (!isObject(o) || !isCount(o.lines) || !Array.isArray(o.spans) || !o.spans.every(isSpan)) return "result.outline is invalid";
  }
  return null;
}

/** The walk's dirs and their stamps, or why the row is invalid. */
export function checkWalkRow(
  x: unknown,
  entries: number,
): string | { dirKeys: string[]; dirStamps: Float64Array; links: [abs: string, real: string][] } {
  if (!Array.isArray(x) || x.length !== 7) return "walk row is not a 7-tuple";
  const [start, rule, files, dirs, packed, linkText, unrowed] = x as unknown[];
  if (!isString(start) || !isString(rule) || !isString(dirs) || !isString(packed) || !isString(linkText) || !isString(unrowed)) {
    return "walk row names are invalid";
  }
  const links = linkText === "" ? [] : linkText.split("\n").map((pair) => pair.split("\0"));
  if (links.some((pair) => pair.length !== 2 || pair[0] === "" || pair[1] === "")) return "walk row links are invalid";
  if (!Array.isArray(files) || files.length % 2 !== 0 || !files.every(isCount)) return "walk row files are invalid";
  for (let i = 0; i < files.length; i += 2) if (files[i] + files[i + 1] > entries) return "walk row files are invalid";
  const dirKeys = dirs === "" ? [] : dirs.split("\n");
  const dirStamps = unpackNumbers(packed, 2 * dirKeys.length);
  if (!dirStamps) return "walk row stamps are invalid";
  return { dirKeys, dirStamps, links: links as [string, string][] };
}

/** Why the meta line is not a valid Meta of `entries` rows, or null. */
export function checkMeta(x: unknown, entries: number): string | null {
  if (!isObject(x)) return "meta is not an object";
  if (!Array.isArray(x.found)) return "found list is invalid";
  const seen = new Set<number>();
  for (const f of x.found) {
    if (!Array.isArray(f) || f.length !== 3 || !isCount(f[0]) || f[0] >= entries || seen.has(f[0]) || !isString(f[1])) {
      return "found row is invalid";
    }
    seen.add(f[0]);
    const why = checkResult(f[2]);
    if (why) return why;
  }
  if (!Array.isArray(x.walks)) return "walk list is invalid";
  return null;
}

export function checkHeader(x: unknown): string | null {
  if (!isObject(x)) return "header is not an object";
  if (x.format !== FORMAT || x.version !== FORMAT_VERSION) return "another format or version";
  if (x.endian !== endianness()) return "written on a machine of another byte order";
  if (
    !isString(x.scope) ||
    !isString(x.key) ||
    !isString(x.fingerprint) ||
    !isTime(x.started) ||
    !isCount(x.rows) ||
    !isCount(x.pathBytes)
  ) {
    return "header fields are invalid";
  }
  return null;
}

/** The numbers of packNumbers, or null unless there are `count` of them. */
export function unpackNumbers(text: string, count: number): Float64Array | null {
  const bytes = Buffer.from(text, "base64");
  if (bytes.length !== count * 8) return null;
  // A copy: Buffer.from may hand out a slice of a pool, not aligned for a Float64Array.
  const numbers = new Float64Array(count);
  new Uint8Array(numbers.buffer).set(bytes);
  return numbers;
}
