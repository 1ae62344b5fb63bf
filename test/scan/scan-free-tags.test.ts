// Tags inside tests and between annotations (issue 49): the fixtures of fixtures/scan/<language>/
// written for them, scanned as `speky scan` does (prefix parse and narrowed query included).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SCAN_FIXTURES, scanFixture } from "./scan-helpers.js";

async function referencesOf(language: string, file: string) {
  const output = await scanFixture(path.join(SCAN_FIXTURES, language));
  return Object.fromEntries(
    output.references.filter((r) => r.file === file).map((r) => [r.id, { symbol: r.symbol, is_test: r.is_test, line: r.line }]),
  );
}

describe("a tag between annotations and the signature", () => {
  // speky:speky-ts#TSCAN-HEADER-TAG
  it.each([
    ["java", "src/test/java/shop/AnnotationOrderTest.java", "AnnotationOrderTest.betweenFirst"],
    ["kotlin", "src/test/kotlin/shop/AnnotationOrderTest.kt", "AnnotationOrderTest.betweenFirst"],
    ["csharp", "tests/AnnotationOrderTests.cs", "Shop.Tests.AnnotationOrderTests.BetweenFirst"],
  ])("%s: every order is a test, the first method of the file included", async (language, file, first) => {
    const refs = await referencesOf(language, file);
    const orders = ["ORDER-BETWEEN-FIRST", "ORDER-BETWEEN-SECOND", "ORDER-ABOVE", "ORDER-AMONG"];
    expect(orders.map((id) => refs[id]?.is_test)).toEqual([true, true, true, true]);
    expect(refs["ORDER-BETWEEN-FIRST"].symbol).toBe(first);
  });
});

describe("a free tag inside a test", () => {
  // speky:speky-ts#TSCAN-FREE-IN-TEST
  it.each([
    [
      "python",
      "test_free_tags.py",
      {
        "FREE-IN-BODY": "test_body_first_line",
        "FREE-AT-SIGNATURE": "test_signature_line",
        "FREE-IN-METHOD": "TestPipe.test_wrapped_annotation",
      },
    ],
    ["go", "free_test.go", { "FREE-AT-SIGNATURE": "TestSignatureLine", "FREE-IN-SUBTEST": "TestSubtests" }],
    ["typescript", "free.spec.ts", { "FREE-IN-BODY": "free tags > in the body", "FREE-AT-SIGNATURE": "free tags > at the signature" }],
    ["java", "src/test/java/shop/AnnotationOrderTest.java", { "FREE-IN-BODY": "AnnotationOrderTest.inBody" }],
    ["kotlin", "src/test/kotlin/shop/AnnotationOrderTest.kt", { "FREE-AT-SIGNATURE": "AnnotationOrderTest.inBody" }],
    ["csharp", "tests/AnnotationOrderTests.cs", { "FREE-IN-BODY": "Shop.Tests.AnnotationOrderTests.InBody" }],
  ])("%s: belongs to the enclosing test, outside tests stays free", async (language, file, expected) => {
    const refs = await referencesOf(language, file);
    for (const [id, symbol] of Object.entries(expected)) expect(refs[id], id).toMatchObject({ symbol, is_test: true });
    if (refs["FREE-OUTSIDE-TESTS"]) expect(refs["FREE-OUTSIDE-TESTS"]).toMatchObject({ symbol: null, is_test: false });
  });

  // speky:speky-ts#TSCAN-COMPUTED-TITLE
  it("in a test whose title is computed: a concatenation is a title pattern, any other title a warning", async () => {
    const output = await scanFixture(path.join(SCAN_FIXTURES, "typescript"));
    const refs = output.references.filter((r) => r.file === "free.spec.ts");
    expect(refs.find((r) => r.id === "FREE-COMPUTED-TITLE")).toMatchObject({
      symbol: `computed titles > ${"$"}{t.input} throws`,
      is_test: true,
    });
    expect(refs.find((r) => r.id === "FREE-UNTITLED")).toMatchObject({ symbol: null, is_test: false });
    const warning = output.diagnostics.find((d) => d.file === "free.spec.ts" && d.line === 30);
    expect(warning?.message).toMatch(/^tag inside a test whose title is computed/);
  });
});
