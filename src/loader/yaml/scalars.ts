// Scalar typing shared by both YAML readers. Unquoted scalars are typed by PyYAML's rules
// (its implicit resolvers and SafeConstructor), not the `yaml` package's: speky reads YAML
// with PyYAML, where `yes` is true but `y` is text, `010` is 8 and `1e5` is text.
import type { DocumentOptions, ParseOptions, SchemaOptions } from "yaml";
import { type ScalarTag, type SScalar, scalar } from "../format/node.js";

export const YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  // YAML 1.1 as PyYAML: `<<` merge keys, 1.1 escapes.
  version: "1.1",
  // PyYAML keeps the last of duplicate keys; we do too, with a warning.
  uniqueKeys: false,
  prettyErrors: false,
};

const TAG_NAMES: Record<string, ScalarTag> = {
  "tag:yaml.org,2002:str": "str",
  "tag:yaml.org,2002:int": "int",
  "tag:yaml.org,2002:float": "float",
  "tag:yaml.org,2002:bool": "bool",
  "tag:yaml.org,2002:null": "null",
  "tag:yaml.org,2002:timestamp": "timestamp",
  "tag:yaml.org,2002:binary": "binary",
};

/** Our name for an explicit tag (`!!int`); any other tag leaves text. */
export function tagName(uri: string | undefined): ScalarTag {
  return (uri && TAG_NAMES[uri]) || "str";
}

// PyYAML's resolver.py, in its order, each tried only for the first characters it lists.
const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;
const TIMESTAMP =
  /^(?:([0-9]{4})-([0-9]{2})-([0-9]{2})|([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9]{1,2})(?::([0-9]{2}))?))?)$/;

/**
 * PyYAML resolves a plain `=` to its `value` tag and a plain `<<` (outside a key) to `merge`,
 * which safe_load cannot construct: the document fails to load. The tag it names, or undefined.
 */
export function unconstructibleTag(text: string): string | undefined {
  return text === "=" ? "tag:yaml.org,2002:value" : text === "<<" ? "tag:yaml.org,2002:merge" : undefined;
}

/** An unquoted scalar typed as PyYAML's safe_load types it; raw is kept unless it is text. */
export function plainScalar(text: string, line: number, column: number): SScalar {
  const tag = plainTag(text);
  return tag === "str" ? scalar(tag, text, line, column) : scalar(tag, plainValue(tag, text), line, column, text);
}

/** The type of an unquoted scalar, by PyYAML's implicit resolvers. */
export function plainTag(text: string): ScalarTag {
  const c = text[0] ?? "";
  if (c === "" || c === "~") return "null";
  if ("yYnNtTfFoO".includes(c)) {
    // Every boolean and null word is at most 5 characters long.
    if (text.length > 5) return "str";
    if (BOOL.test(text)) return "bool";
    return (c === "n" || c === "N") && NULL.test(text) ? "null" : "str";
  }
  if (!"-+.0123456789".includes(c)) return "str";
  if (FLOAT.test(text)) return "float";
  if (INT.test(text)) return "int";
  return c !== "." && TIMESTAMP.test(text) ? "timestamp" : "str";
}

function plainValue(tag: ScalarTag, text: string): unknown {
  switch (tag) {
    case "null":
      return null;
    case "bool":
      return /^(?:yes|true|on)$/i.test(text);
    case "int":
      return pyInt(text);
    case "float":
      return pyFloat(text);
    case "timestamp":
      return timestamp(TIMESTAMP.exec(text)!);
    default:
      return text;
  }
}

/** SafeConstructor.construct_yaml_int */
function pyInt(text: string): number {
  let v = text.replaceAll("_", "");
  const sign = v[0] === "-" ? -1 : 1;
  if (v[0] === "-" || v[0] === "+") v = v.slice(1);
  if (v === "0") return 0;
  if (v.startsWith("0b")) return sign * parseInt(v.slice(2), 2);
  if (v.startsWith("0x")) return sign * parseInt(v.slice(2), 16);
  if (v[0] === "0") return sign * parseInt(v, 8);
  if (v.includes(":")) return sign * sexagesimal(v);
  return sign * Number(v);
}

/** SafeConstructor.construct_yaml_float */
function pyFloat(text: string): number {
  let v = text.replaceAll("_", "").toLowerCase();
  const sign = v[0] === "-" ? -1 : 1;
  if (v[0] === "-" || v[0] === "+") v = v.slice(1);
  if (v === ".inf") return sign * Infinity;
  if (v === ".nan") return NaN;
  if (v.includes(":")) return sign * sexagesimal(v);
  return sign * Number(v);
}

const PY_FLOAT = /^\s*[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?|inf|infinity|nan)\s*$/;

/**
 * An explicit `!!float` scalar as PyYAML's construct_yaml_float reads it (`!!float 1` is 1.0,
 * `!!float 1:30` is 90): any text Python's float() takes. Undefined when it takes none.
 */
export function explicitFloat(text: string): number | undefined {
  let v = text.replaceAll("_", "").toLowerCase();
  if (v === "") return undefined;
  const sign = v[0] === "-" ? -1 : 1;
  if (v[0] === "-" || v[0] === "+") v = v.slice(1);
  if (v === ".inf") return sign * Infinity;
  if (v === ".nan") return NaN;
  const parts = v.split(":");
  if (!parts.every((p) => PY_FLOAT.test(p))) return undefined;
  const num = (p: string) => {
    const t = p.trim().replace(/^\+/, "");
    const neg = t.startsWith("-");
    const word = t.replace(/^-/, "");
    const n = word === "inf" || word === "infinity" ? Infinity : word === "nan" ? NaN : Number(word);
    return neg ? -n : n;
  };
  return sign * parts.reduce((total, part) => total * 60 + num(part), 0);
}

/** 1:30 is 90, 1:30:00.5 is 5400.5. */
function sexagesimal(v: string): number {
  return v.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

function timestamp(m: RegExpExecArray): Date {
  if (m[1]) return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  const ms = Math.round(Number(`0.${m[10] ?? 0}`) * 1000);
  const utc = Date.UTC(+m[4], +m[5] - 1, +m[6], +m[7], +m[8], +m[9], ms);
  const offset = m[12] ? (m[12] === "-" ? -1 : 1) * (+m[13] * 60 + +(m[14] ?? 0)) : 0;
  return new Date(utc - offset * 60_000);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** Body of a one-line double-quoted scalar; undefined for an escape YAML does not define. */
export function unescapeDoubleQuoted(body: string): string | undefined {
  if (!body.includes("\\")) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return undefined;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const n = HEX_LENGTH[e];
    const hex = n ? body.slice(i + 1, i + 1 + n) : "";
    if (!n || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) return undefined;
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) return undefined;
    out += String.fromCodePoint(code);
    i += n;
  }
  return out;
}
