// Fuzzing the scanner (fast-check): the sources of fixtures/scan/<language>/, mutated at the
// byte level and planted with tags and tag-like text at random places. Whatever the bytes,
// scanFileBuffer terminates, never throws, and accounts for every occurrence of the marker.
//
// The invariant, as the engine defines it (src/scan/engine.ts, file.ts, text.ts):
// - the occurrences that attempt no tag are exempt: the marker followed by `//` (a URI of
//   its scheme) or by `<` (the documentation notation `<project>#<ID>`);
// - every other well-formed occurrence (`<project>#<ID>`) becomes exactly one tag, in text
//   order, naming that project and ID, written at that line and column; a tag that is not a
//   reference (in a string, in code, unparsable or unscannable file) always carries a warning;
//   a free reference sits where it is written; a symbol reference names a definition;
// - a malformed occurrence is a "malformed tag" diagnostic at its place when it is in a
//   comment, and is otherwise prose or code that mentions the marker (no tag attempted);
// - a file that is not text (invalid UTF-8, NUL byte) or has no grammar still reports each
//   of its well-formed tags, with a warning.
// At the scan level, tags naming a project that no manifest declares are counted, not reported.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type FileResult, scanFileBuffer } from "../../src/scan/engine/file.js";
import { MESSAGES } from "../../src/scan/engine/index.js";
import { scanPaths } from "../../src/scan/scan.js";
import { type Mutation, mutate } from "../support/mutate.js";
import { REPO, tempDir } from "../support/process.js";

const SCAN_FIXTURES = path.join(REPO, "fixtures/scan");
const SEED = process.env.FUZZ_SEED === "random" ? Date.now() : Number(process.env.FUZZ_SEED ?? 20260405);
const RUNS_PER_LANGUAGE = Number(process.env.FUZZ_RUNS ?? 20);
const MARKER = "speky" + ":";

const scratch = tempDir("speky-fuzz-scan-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(abs));
    else if (entry.name !== "expected.json") out.push(abs);
  }
  return out.sort();
}

const LANGUAGES = readdirSync(SCAN_FIXTURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** What gets planted: tags, near-tags, exempt forms, and text that confuses parsers. */
const PLANTS = [
  `${MARKER}fx#ID`,
  `${MARKER}fx#A-1_b`,
  `${MARKER}other.proj#X`,
  `${MARKER}FX#Case`,
  `// ${MARKER}fx#LINE\n`,
  `# ${MARKER}fx#HASH\n`,
  `/* ${MARKER}fx#BLOCK */`,
  `-- ${MARKER}fx#LUA\n`,
  `(* ${MARKER}fx#ML *)`,
  `"${MARKER}fx#STR"`,
  `'${MARKER}fx#STR'`,
  `${MARKER}fx#ID ${MARKER}fx#ID2`,
  MARKER,
  `${MARKER}fx`,
  `${MARKER}fx#`,
  `${MARKER}#ID`,
  `${MARKER} fx#ID`,
  `${MARKER}//example`,
  `${MARKER}<project>#<ID>`,
  `${MARKER}${MARKER}fx#TWICE`,
  "\n",
  "\r\n",
  "\r",
  "\ufeff",
  "{",
  "}",
  "(",
  ")",
  "[",
  '"',
  "'",
  "`",
  "/*",
  "*/",
  '"""',
  "\\",
  "\t",
  "é",
  "😀",
];

const edit: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("text" as const), at: fc.nat(), text: fc.constantFrom(...PLANTS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("swapLines" as const), a: fc.nat(), b: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("lineEnds" as const), ending: fc.constantFrom("\r\n" as const, "\r" as const) }) },
);

// --- an independent model of what the scanner must account for --------------------------

const TAG = /^([A-Za-z0-9_.-]+)#([A-Za-z0-9_-]+)/;

interface Occurrence {
  index: number;
  line: number;
  column: number;
  /** Well-formed: the project and ID it names; null when malformed. */
  tag: { project: string; id: string } | null;
}

/** The text the scanner sees, or null when it must treat the bytes as not text. */
/** Text unless a NUL byte is near the start; bytes that aren't UTF-8 become U+FFFD. */
function asText(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8192).includes(0)) return null;
  return new TextDecoder("utf-8").decode(bytes);
}

/** Lines end at LF, CRLF or a lone CR (as an editor shows them); columns count code points. */
function occurrences(text: string): { attempted: Occurrence[]; exempt: number; total: number } {
  const attempted: Occurrence[] = [];
  let exempt = 0;
  let total = 0;
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  const advance = (to: number) => {
    for (let i = scanned; i < to; i++) {
      const c = text[i];
      if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) {
        line++;
        lineStart = i + 1;
      }
    }
    scanned = to;
  };
  for (let i = text.indexOf(MARKER); i >= 0; i = text.indexOf(MARKER, i + MARKER.length)) {
    total++;
    const after = text.slice(i + MARKER.length);
    if (after.startsWith("//") || after.startsWith("<")) {
      exempt++;
      continue;
    }
    advance(i);
    const m = TAG.exec(after);
    attempted.push({
      index: i,
      line,
      column: Array.from(text.slice(lineStart, i)).length + 1,
      tag: m ? { project: m[1], id: m[2] } : null,
    });
  }
  return { attempted, exempt, total };
}

/** The count of a warning-cap summary ("n more tags not scanned in this file: ..."), else 0. */
function moreCount(message: string | null): number {
  return Number(/^(\d+) more tags? (?:not scanned )?in this file: /.exec(message ?? "")?.[1] ?? 0);
}

function expectAccountedFor(bytes: Buffer, result: FileResult, label: string): void {
  const rawCount = bytes.toString("latin1").split(MARKER).length - 1;
  if (rawCount === 0) {
    expect(result.tags, label).toEqual([]);
    expect(result.diagnostics, label).toEqual([]);
    return;
  }
  const text = asText(bytes);
  const model = occurrences(text ?? bytes.toString("latin1"));
  // Every raw occurrence is either attempted or exempt.
  expect(model.attempted.length + model.exempt, label).toBe(model.total);
  const wellFormed = model.attempted.filter((o) => o.tag);
  const malformed = model.attempted.filter((o) => !o.tag);

  // One tag per well-formed occurrence, in order, naming what is written there; past the
  // warning cap (cap.ts), warning-only tags are counted by one summary instead of listed.
  const summaries = result.tags.filter((t) => moreCount(t.warning) > 0);
  const listed = result.tags.filter((t) => moreCount(t.warning) === 0);
  const overflow = result.diagnostics.filter((d) => / projects\)$/.test(d.message));
  for (const t of summaries) expect(t.reference, label).toBe(false);
  // Only tags "not scanned" are left out; references past the cap stay, without their warning.
  const counted = [...summaries.map((t) => t.warning!), ...overflow.map((d) => d.message)]
    .filter((m) => m.includes(" not scanned in this file: "))
    .reduce((n, m) => n + moreCount(m), 0);
  expect(listed.length + counted, label).toBe(wellFormed.length);
  let next = 0;
  const occurrenceOf = listed.map((tag) => {
    const same = (o: (typeof wellFormed)[number]) =>
      o.tag!.project === tag.project && o.tag!.id === tag.id && (text === null || (o.line === tag.tag_line && o.column === tag.tag_column));
    while (next < wellFormed.length && !same(wellFormed[next])) next++;
    expect(next, `${label}: ${JSON.stringify(tag)} is no occurrence, in order`).toBeLessThan(wellFormed.length);
    return wellFormed[next++];
  });

  listed.forEach((tag, k) => {
    const o = occurrenceOf[k];
    const where = `${label}: tag ${k} ${JSON.stringify(tag)} for ${JSON.stringify(o)}`;
    if (text === null) {
      expect(result.language, where).toBeNull();
      expect(tag, where).toMatchObject({ reference: false, warning: MESSAGES.notText, line: 0, column: 0 });
      return;
    }
    expect([tag.tag_line, tag.tag_column], where).toEqual([o.line, o.column]);
    // Nothing is dropped silently: what is not a reference says why.
    if (!tag.reference) expect(tag.warning, where).toBeTruthy();
    if (result.language === null) expect(tag.warning, where).toBe(MESSAGES.noGrammar);
    if (tag.symbol === null) {
      expect([tag.line, tag.column], where).toEqual([tag.tag_line, tag.tag_column]);
      expect(tag.kind, where).toBeNull();
      expect(tag.is_test, where).toBe(false);
    } else {
      expect(tag.reference, where).toBe(true);
      // A name the parser invented (syntax error) is no symbol; only a test's title, a string
      // literal, may be written empty (`test "" {}`).
      if (!tag.is_test) expect(tag.symbol.length, where).toBeGreaterThan(0);
      expect(typeof tag.kind, where).toBe("string");
      expect(tag.line, where).toBeGreaterThanOrEqual(1);
      expect(tag.column, where).toBeGreaterThanOrEqual(1);
    }
  });

  // A diagnostic only for a malformed occurrence, at its place, at most one each (past the
  // cap, one that counts the rest).
  const places = new Set(malformed.map((o) => `${o.line}:${o.column}`));
  const own = result.diagnostics.filter((d) => !overflow.includes(d));
  for (const d of own) {
    expect(d.message.replace(/^\d+ more in this file: /, ""), label).toBe(MESSAGES.malformed);
    expect(places.has(`${d.line}:${d.column}`), `${label}: ${JSON.stringify(d)}`).toBe(true);
  }
  const malformedCount = own.reduce((n, d) => n + (Number(/^(\d+) more in this file: /.exec(d.message)?.[1] ?? 0) || 1), 0);
  expect(malformedCount, label).toBeLessThanOrEqual(malformed.length);
}

describe("scanner fuzzing", () => {
  it("has a fixture folder for every language to fuzz", () => {
    expect(LANGUAGES.length).toBeGreaterThanOrEqual(20);
  });

  describe.each(LANGUAGES)("%s", (language) => {
    const files = sources(path.join(SCAN_FIXTURES, language));

    it("scans mutated, tag-planted sources without throwing, accounting for every marker", async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...files), fc.array(edit, { minLength: 1, maxLength: 8 }), async (file, edits) => {
          const bytes = edits.reduce(mutate, readFileSync(file));
          const label = `${path.relative(REPO, file)} after ${JSON.stringify(edits)}`;
          const result = await scanFileBuffer(file, bytes);
          expectAccountedFor(bytes, result, label);
        }),
        { seed: SEED, numRuns: RUNS_PER_LANGUAGE, endOnFailure: true },
      );
    });
  });

  it("scans random bytes under every file name and shebang without throwing", async () => {
    const names = [...LANGUAGES.map((l) => sources(path.join(SCAN_FIXTURES, l))[0]), "/x/script", "/x/README"];
    const content = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
      fc
        .array(fc.constantFrom(...PLANTS, "#!/usr/bin/env python3\n", "#!/bin/sh\n", "x", " ", "def f():\n", "fn f() {}\n"), {
          maxLength: 40,
        })
        .map((p) => Buffer.from(p.join(""))),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), content, async (file, bytes) => {
        const result = await scanFileBuffer(file, bytes);
        expectAccountedFor(bytes, result, `${file} = ${JSON.stringify(bytes.toString("latin1"))}`);
      }),
      { seed: SEED, numRuns: 200, endOnFailure: true },
    );
  });

  it("reports every planted tag of a declared project as a reference or a warning of the whole scan", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...LANGUAGES), fc.array(edit, { minLength: 1, maxLength: 6 })), { minLength: 1, maxLength: 6 }),
        async (picks) => {
          const dir = path.join(scratch, `tree-${Math.random().toString(36).slice(2)}`);
          const expected = new Map<string, number>();
          picks.forEach(([language, edits], k) => {
            const source = sources(path.join(SCAN_FIXTURES, language))[0];
            const rel = `${k}/${path.basename(source)}`;
            const bytes = edits.reduce(mutate, readFileSync(source));
            mkdirSync(path.join(dir, String(k)), { recursive: true });
            writeFileSync(path.join(dir, rel), bytes);
            const text = asText(bytes) ?? bytes.toString("latin1");
            const fx = occurrences(text).attempted.filter((o) => o.tag?.project.toLowerCase() === "fx").length;
            expected.set(rel, fx);
          });
          try {
            const result = await scanPaths("fx", ["."], dir);
            for (const [rel, count] of expected) {
              const references = result.references.filter((r) => r.file === rel);
              const warnings = result.diagnostics.filter((d) => d.file === rel);
              // Each fx tag is a reference or stands behind a warning of its file (tags of an
              // unscannable file share one file-level warning).
              expect(references.length, rel).toBeLessThanOrEqual(count);
              if (references.length < count)
                expect(warnings.length, `${rel}: ${count - references.length} tags not referenced`).toBeGreaterThan(0);
              for (const r of references) expect(r.project).toBe("fx");
            }
            // Paths stay relative to the scanned root.
            for (const x of [...result.references, ...result.diagnostics]) expect(path.isAbsolute(x.file)).toBe(false);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { seed: SEED, numRuns: 30, endOnFailure: true },
    );
  });
});
