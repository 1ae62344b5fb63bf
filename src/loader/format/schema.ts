// JSON Schemas (draft-07) of the four kinds, built from the loader's own field tables, for
// editors (yaml-language-server, Taplo). schema/*.schema.json are this output; a test keeps
// them equal.
import { DATE_PATTERN, FILE_SPECS, type FieldSpec, KINDS, type Kind, type ObjectSpec } from "./fields.js";

type JsonSchema = Record<string, unknown>;

export function schemaFileName(kind: Kind): string {
  return kind === "project" ? "project.schema.json" : `${kind}.schema.json`;
}

export function buildSchemas(): Record<Kind, JsonSchema> {
  return Object.fromEntries(KINDS.map((kind) => [kind, fileSchema(kind)])) as Record<Kind, JsonSchema>;
}

function fileSchema(kind: Kind): JsonSchema {
  const definitions: Record<string, JsonSchema> = {};
  const spec = FILE_SPECS[kind];
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: `speky ${spec.name}`,
    ...objectSchema(spec, definitions),
    definitions,
  };
}

function objectSchema(spec: ObjectSpec, definitions: Record<string, JsonSchema>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of Object.entries(spec.fields)) properties[name] = fieldSchema(field, definitions);
  const required = Object.keys(spec.fields).filter((name) => spec.fields[name].required);
  return {
    type: "object",
    description: spec.description,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** A nested object is defined once and referred to, as comments use one twice. */
function reference(spec: ObjectSpec, definitions: Record<string, JsonSchema>): JsonSchema {
  definitions[spec.name] ??= objectSchema(spec, definitions);
  return { $ref: `#/definitions/${spec.name}` };
}

function fieldSchema(field: FieldSpec, definitions: Record<string, JsonSchema>): JsonSchema {
  const description = field.description;
  // The loader reads an optional field left empty (null) as absent.
  const type = (t: string) => (field.required ? t : [t, "null"]);
  switch (field.type) {
    case "kind":
      return { const: field.value, description };
    case "string":
      return { type: type("string"), description };
    case "date":
      return { type: type("string"), pattern: DATE_PATTERN, description };
    case "boolean":
      return { type: type("boolean"), description };
    case "strings":
      return {
        type: type("array"),
        items: { type: "string" },
        ...(field.minItems ? { minItems: field.minItems } : {}),
        description,
      };
    case "properties":
      return { type: type("object"), additionalProperties: { type: ["string", "integer"] }, description };
    case "object":
      return field.required
        ? { ...reference(field.of, definitions), description }
        : { anyOf: [reference(field.of, definitions), { type: "null" }], description };
    case "objects":
      return { type: type("array"), items: reference(field.of, definitions), description };
  }
}
