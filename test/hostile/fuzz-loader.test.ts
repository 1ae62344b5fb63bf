// Fuzzing the specification loader (fast-check): random bytes, random structures and mutated
// copies of the valid fixture tree. Whatever the input, loadSpecs resolves to a model or to
// clean diagnostics (file, line >= 0, column >= 0, severity, one non-empty line of message);
// no exception ever escapes it. Runs are bounded so that the suite stays within seconds.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { stringify as tomlStringify } from "smol-toml";
import { afterAll, describe, expect, it } from "vitest";
import { stringify as yamlStringify } from "yaml";
import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics.js";
import { loadSpecs } from "../../src/loader/load.js";
import type { LoadResult } from "../../src/loader/types.js";
import { type Mutation, mutate } from "../support/mutate.js";
import { REPO, tempDir } from "../support/process.js";

const VALID = path.join(REPO, "fixtures/specs/valid");
/** Fixed seed unless told otherwise (FUZZ_SEED=random or a number): failures replay. */
const SEED = process.env.FUZZ_SEED === "random" ? Date.now() : Number(process.env.FUZZ_SEED ?? 20260405);
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);

const scratch = tempDir("speky-fuzz-loader-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function specFiles(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...specFiles(dir, child));
    else if (/\.(ya?ml|toml|csv)$/.test(entry.name)) out.push(child);
  }
  return out.sort();
}

/** The valid tree's spec files (manifests, requirements, tests, YAML/TOML/CSV comments). */
const FILES = specFiles(VALID);

/** Tokens that steer a parser into its rarer paths. */
const TOKENS = [
  "&a ",
  "*a",
  "<<: *a\n",
  "!!binary ",
  "!!python/object ",
  "!unknown ",
  "---\n",
  "...\n",
  "? ",
  "- ",
  ": ",
  "{",
  "}",
  "[",
  "]",
  "[[",
  "]]",
  '"',
  "'",
  '"""',
  "'''",
  "|\n",
  ">-\n",
  "#",
  "\t",
  "\0",
  "\r",
  "\r\n",
  "\n",
  "\ufeff",
  "\u2028",
  "\\",
  "\\u00",
  "=",
  ",",
  ",,",
  '""',
  "kind: project\n",
  'kind = "tests"\n',
  "id: REQ-001\n",
  "ref: [NOPE]\n",
  "- id: X\n  long: y\n",
  "1979-05-27T07:32:00Z",
  "0x",
  "1e999",
  "nan",
  "~",
  "é",
  "😀",
  "\udc00",
];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant("text" as const), at: fc.nat(), text: fc.constantFrom(...TOKENS) }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("swapLines" as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant("duplicateLine" as const), a: fc.nat() }),
  fc.record({ kind: fc.constant("lineEnds" as const), ending: fc.constantFrom("\r\n" as const, "\r" as const) }),
);

/** What every load must end in, whatever its input. */
function expectClean(result: LoadResult, label: string): void {
  for (const d of result.diagnostics) {
    const where = `${label}: ${JSON.stringify(d)}`;
    expect(typeof d.file, where).toBe("string");
    expect(d.file.length, where).toBeGreaterThan(0);
    expect(path.isAbsolute(d.file), where).toBe(false);
    expect(Number.isInteger(d.line) && d.line >= 0, where).toBe(true);
    expect(Number.isInteger(d.column) && d.column >= 0, where).toBe(true);
    expect(["error", "warning"], where).toContain(d.severity);
    expect(typeof d.message, where).toBe("string");
    expect(d.message.trim().length, where).toBeGreaterThan(0);
    expect(d.message, where).not.toMatch(/[\r\n\u2028\u2029]/);
  }
  // Sorted and free of repeats, as documented; a file that failed to load and caused errors
  // elsewhere comes first, with the line counting them last in its group (src/loader/cause.ts).
  const summary = (d: Diagnostic) => d.line === 0 && / which failed to load$/.test(d.message);
  const causes = new Set(result.diagnostics.filter(summary).map((d) => d.file));
  const lead = result.diagnostics.filter((d) => causes.has(d.file));
  expect(result.diagnostics.slice(0, lead.length), label).toEqual(lead);
  const groups = [...causes].map((file) => lead.filter((d) => d.file === file));
  for (const group of [...groups.map((g) => g.slice(0, -1)), result.diagnostics.slice(lead.length)]) {
    for (let i = 1; i < group.length; i++) expect(compareDiagnostics(group[i - 1], group[i]), label).toBeLessThan(0);
  }
  for (const group of groups) expect(summary(group[group.length - 1]), label).toBe(true);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (result.specs === null) expect(errors.length, `${label}: no model, so some error`).toBeGreaterThan(0);
  else expect(errors, `${label}: a model, so no error`).toEqual([]);
}

/** A line number cited in a file must exist in it (the end of the file counts as a line). */
function expectLinesWithin(result: LoadResult, display: string, bytes: Buffer, label: string): void {
  const text = bytes.toString("utf8");
  const lines = text.split(/\r\n|\r|\n/).length;
  for (const d of result.diagnostics.filter((x) => x.file === display)) {
    expect(d.line, `${label}: ${JSON.stringify(d)} (file has ${lines} lines)`).toBeLessThanOrEqual(lines + 1);
  }
}

async function load(paths: string[], cwd: string, csvs: string[] = []): Promise<LoadResult> {
  // Not wrapped: an exception here fails the property with its input, which is the point.
  return loadSpecs(paths, { cwd, csvs });
}

const params = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });

describe("loader fuzzing", () => {
  const tree = path.join(scratch, "tree");
  cpSync(VALID, tree, { recursive: true });

  // speky:speky-ts#THARD-FUZZ
  it("loads mutated copies of the valid tree into a model or clean diagnostics, never an exception", async () => {
    let models = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FILES), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (file, mutations) => {
        const original = readFileSync(path.join(VALID, file));
        const bytes = mutations.reduce(mutate, original);
        const target = path.join(tree, file);
        writeFileSync(target, bytes);
        try {
          const result = await load(["speky.yaml"], tree);
          const label = `${file} after ${JSON.stringify(mutations)}`;
          expectClean(result, label);
          expectLinesWithin(result, file, bytes, label);
          if (result.specs) models++;
        } finally {
          writeFileSync(target, original);
        }
      }),
      params(RUNS),
    );
    // Both outcomes are exercised: some mutations keep the tree valid, most break it.
    expect(models).toBeGreaterThan(0);
  });

  // speky:speky-ts#THARD-FUZZ
  it("loads random bytes given directly as YAML, TOML or CSV into clean diagnostics", async () => {
    const dir = path.join(scratch, "random");
    mkdirSync(dir, { recursive: true });
    const content = fc.oneof(
      fc.uint8Array({ maxLength: 400 }).map((a) => Buffer.from(a)),
      fc.string({ unit: "binary", maxLength: 300 }).map((s) => Buffer.from(s)),
      fc
        .array(fc.constantFrom(...TOKENS, "kind", "requirements", "tests", "comments", "project", "x", " ", "  ", "\n"), { maxLength: 60 })
        .map((parts) => Buffer.from(parts.join(""))),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("r.yaml", "r.yml", "r.toml", "r.csv"), content, async (name, bytes) => {
        writeFileSync(path.join(dir, name), bytes);
        const result = name.endsWith(".csv") ? await load([], dir, [name]) : await load([name], dir);
        const label = `${name} = ${JSON.stringify(bytes.toString("latin1"))}`;
        expectClean(result, label);
        expectLinesWithin(result, name, bytes, label);
      }),
      params(RUNS),
    );
  });

  it("loads well-formed documents of any shape (wrong types everywhere) into clean diagnostics", async () => {
    const dir = path.join(scratch, "shapes");
    mkdirSync(dir, { recursive: true });
    const value = fc.oneof(
      { maxDepth: 3 },
      fc.anything({ maxDepth: 2, maxKeys: 4, withNullPrototype: false }),
      fc.array(
        fc.dictionary(
          fc.constantFrom(
            "id",
            "long",
            "short",
            "ref",
            "tags",
            "steps",
            "action",
            "about",
            "date",
            "from",
            "text",
            "external",
            "properties",
            "prereq",
          ),
          fc.anything({ maxDepth: 2 }),
        ),
        { maxLength: 3 },
      ),
    );
    const document = fc.record(
      {
        kind: fc.constantFrom("requirements", "tests", "comments", "project", "nope", 3),
        category: value,
        requirements: value,
        tests: value,
        comments: value,
        default: value,
        name: value,
        files: value,
        code_sources: value,
        root_directory: value,
        coverage_categories: value,
        source_links: value,
      },
      { requiredKeys: ["kind"] },
    );
    await fc.assert(
      fc.asyncProperty(document, fc.boolean(), async (doc, asToml) => {
        let text: string;
        try {
          text = asToml ? tomlStringify(doc) : yamlStringify(doc);
        } catch {
          return; // not expressible in that format (TOML has no null): nothing to load
        }
        const name = asToml ? "d.toml" : "d.yaml";
        writeFileSync(path.join(dir, name), text);
        expectClean(await load([name], dir), `${name}:\n${text}`);
      }),
      params(RUNS),
    );
  });
});
