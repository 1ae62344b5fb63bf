// Scalar typing shared by both YAML readers, taken from the `yaml` package's own YAML 1.1
// schema so the fast reader and the full parser can never disagree. YAML 1.1 is what speky's
// PyYAML implements: `yes` is true, `010` is 8, `2025-05-21` is a date.
import { Document, isScalar, type DocumentOptions, type ParseOptions, type ScalarTag as YamlTag, type SchemaOptions } from "yaml";
import type { ScalarTag } from "./node.js";

export const YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: "1.1",
  // PyYAML keeps the last of duplicate keys; we do too, with a warning.
  uniqueKeys: false,
  prettyErrors: false,
  intAsBigInt: false,
};

const schema = new Document(null, YAML_OPTIONS).schema;
const plainTags = schema.tags.filter(
  (t): t is YamlTag => t.default === true && "test" in t && t.test instanceof RegExp,
);

const TAG_NAMES: Record<string, ScalarTag> = {
  "tag:yaml.org,2002:str": "str",
  "tag:yaml.org,2002:int": "int",
  "tag:yaml.org,2002:float": "float",
  "tag:yaml.org,2002:bool": "bool",
  "tag:yaml.org,2002:null": "null",
  "tag:yaml.org,2002:timestamp": "timestamp",
  "tag:yaml.org,2002:binary": "binary",
};

export function tagName(uri: string | undefined): ScalarTag {
  return (uri && TAG_NAMES[uri]) || "str";
}

/** Only these letters can start a YAML 1.1 null or boolean; any other letter starts text. */
const SPECIAL_LETTERS = new Set("yYnNtTfFoO");

/** Type and value of an unquoted scalar, exactly as the `yaml` package resolves it. */
export function resolvePlain(text: string): { tag: ScalarTag; value: unknown } {
  const first = text.charCodeAt(0);
  const isLetter = (first >= 65 && first <= 90) || (first >= 97 && first <= 122);
  if (isLetter && !SPECIAL_LETTERS.has(text[0])) return { tag: "str", value: text };
  for (const t of plainTags) {
    if (t.test!.test(text)) {
      const value = t.resolve(text, () => {}, YAML_OPTIONS);
      return { tag: tagName(t.tag), value: isScalar(value) ? value.value : value };
    }
  }
  return { tag: "str", value: text };
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
