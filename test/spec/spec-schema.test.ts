// The JSON Schemas under schema/ are built from the loader's field tables, and agree with the
// loader: every valid fixture file passes its schema, the field-level invalid ones fail it.
// SPEKY_UPDATE_FIXTURES=1 rewrites the schema files.
import fs from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { KINDS } from "../../src/loader/format/fields.js";
import { buildSchemas, schemaFileName } from "../../src/loader/format/schema.js";

const repo = path.resolve(import.meta.dirname, "../..");
const fixtures = path.join(repo, "fixtures/specs");
const update = process.env.SPEKY_UPDATE_FIXTURES === "1";
const schemas = buildSchemas();

function specFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ya?ml|toml)$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

function parseFile(file: string): unknown {
  const text = fs.readFileSync(file, "utf8");
  return file.endsWith(".toml") ? parseToml(text) : parseYaml(text, { version: "1.1" });
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validators = Object.fromEntries(KINDS.map((kind) => [kind, ajv.compile(schemas[kind])]));

function validate(file: string) {
  const data = parseFile(file) as { kind?: string };
  const validator = validators[data?.kind ?? ""];
  return validator ? { valid: validator(data), errors: validator.errors } : { valid: false, errors: "no kind" };
}

describe("JSON Schemas", () => {
  it.each(KINDS.map((k) => [k]))("schema/%s matches the loader's field table", (kind) => {
    const file = path.join(repo, "schema", schemaFileName(kind));
    const expected = `${JSON.stringify(schemas[kind], null, 2)}\n`;
    if (update) fs.writeFileSync(file, expected);
    expect(fs.readFileSync(file, "utf8")).toBe(expected);
  });

  it.each(specFiles(path.join(fixtures, "valid")).map((f) => [path.relative(fixtures, f), f]))(
    "accepts the valid fixture %s",
    (_, file) => {
      const { valid, errors } = validate(file);
      expect(errors).toBeNull();
      expect(valid).toBe(true);
    },
  );

  // Cases whose problem is the shape of one file, which a schema can see.
  const shapeCases = [
    "missing-fields",
    "wrong-types",
    "test-without-ref",
    "step-without-action",
    "unknown-kind",
    "missing-kind",
    "bad-date",
    "manifest-errors",
  ];
  it.each(shapeCases.map((c) => [c]))("rejects the invalid fixture %s", (name) => {
    const files = specFiles(path.join(fixtures, "invalid", name));
    expect(files.length).toBeGreaterThan(0);
    expect(files.some((file) => !validate(file).valid)).toBe(true);
  });
});
