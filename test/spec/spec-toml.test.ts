// The TOML position walker finds every value smol-toml reads, at the right place, whatever
// mix of tables, arrays of tables, inline tables, dotted and quoted keys the file uses.
import fc from "fast-check";
import { parse, stringify } from "smol-toml";
import { describe, expect, it } from "vitest";
import { locateToml, PATH_SEP } from "../../src/loader/toml/positions.js";

type Value = string | number | boolean | Value[] | { [key: string]: Value };

const key = fc.constantFrom("id", "long", "a b", "x.y", "ref", "steps", 'q"uote', "ünï", "1");
const leaf = fc.oneof(
  fc.constantFrom("text", 'with "quotes"', "multi\nline", "a # not a comment", "[not a table]", "'", ""),
  fc.integer(),
  fc.constantFrom(1.5, -0.25, 1e21),
  fc.boolean(),
);
const value: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(key, tie("value"), { maxKeys: 3 }),
    // Arrays of tables.
    fc.array(fc.dictionary(key, tie("value"), { minKeys: 1, maxKeys: 3 }), { minLength: 1, maxLength: 3 }),
  ),
})).value;

/** Every path in data, with its value. */
function paths(data: Value, prefix: string[] = []): [string[], Value][] {
  const children: [string, Value][] = Array.isArray(data)
    ? data.map((v, i) => [String(i), v])
    : typeof data === "object"
      ? Object.entries(data)
      : [];
  return children.flatMap(([k, v]) => [[[...prefix, k], v] as [string[], Value], ...paths(v, [...prefix, k])]);
}

describe("TOML position walker", () => {
  it("locates every value of any document", () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 }), (data) => {
        const text = stringify(data);
        const spots = locateToml(text);
        for (const [path, v] of paths(parse(text) as Value)) {
          const spot = spots.get(path.join(PATH_SEP));
          expect(spot, `${path.join(".")} in\n${text}`).toBeDefined();
          const at = text.slice(spot!.value);
          if (typeof v === "string") expect(at[0] === '"' || at[0] === "'", at).toBe(true);
          if (typeof v === "boolean") expect(at.startsWith(String(v)), at).toBe(true);
          if (typeof v === "number") expect(spot!.float, at).toBe(!Number.isInteger(v) || /^[^\s,\]}]*[.eE]/.test(at));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("places array-of-tables entries at their headers", () => {
    const text = '[[tests]]\nid = "A"\n\n[[tests.steps]]\naction = "x"\n\n[[tests]]\nid = "B"\n';
    const spots = locateToml(text);
    const line = (p: string[]) => text.slice(0, spots.get(p.join(PATH_SEP))!.value).split("\n").length;
    expect(line(["tests", "0"])).toBe(1);
    expect(line(["tests", "0", "steps", "0", "action"])).toBe(5);
    expect(line(["tests", "1", "id"])).toBe(8);
  });
});
