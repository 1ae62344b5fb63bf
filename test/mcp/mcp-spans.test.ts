// find_code_references(file, line) by definition span, through the SDK client on the built
// server, on fixtures/mcp-spans (Python, TypeScript, Rust, Go, Java): tagged definitions holding the
// line innermost first, then the free tags of the innermost definition holding it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, ok, type Session } from "../support/mcp.js";

let server: Session;
beforeAll(async () => {
  server = await connect(["fixtures/mcp-spans/speky.yaml"]);
});
afterAll(async () => {
  await server?.close();
});

const ref = (file: string, line: number, symbol: string | null, id: string, is_test = false) => ({
  project: "spans",
  file,
  line,
  symbol,
  is_test,
  id,
  kind: "requirement",
});

/** The IDs answered at each line, in order. */
async function idsAt(file: string, lines: number[]): Promise<Record<number, string[]>> {
  const answers: Record<number, string[]> = {};
  for (const line of lines) {
    const { references } = (await ok(server.client, "find_code_references", { file, line })) as { references: { id: string }[] };
    answers[line] = references.map((r) => r.id);
  }
  return answers;
}

describe("find_code_references by definition span", () => {
  // speky:speky-ts#TNAV-FIND-BY-SPAN
  it("Python: a line in an untagged function below a tagged class names nothing of the class", async () => {
    const lines = [1, 2, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 19, 20, 21, 22, 23, 24, 26, 27, 28, 29, 500];
    expect(await idsAt("src/models.py", lines)).toEqual({
      // Outside every definition: the free tag outside every definition (a tag's own line included).
      1: ["MODULE-NOTE"],
      2: ["MODULE-NOTE"],
      7: ["MODULE-NOTE"],
      // The decorator line starts the class's span.
      8: ["SF006", "IN-CLASS"],
      9: ["SF006", "IN-CLASS"],
      // `url: str` is a definition of its own (a class variable), untagged.
      10: ["SF006"],
      11: ["SF006", "IN-CLASS"],
      12: ["SF006", "IN-CLASS"],
      13: ["SF006", "IN-CLASS"],
      // Inside the tagged method: its tags first, then the class's, then the method's free tag.
      14: ["SF007", "SF006", "IN-HOST"],
      16: ["SF007", "SF006", "IN-HOST"],
      // The untagged method: the class's tags, not the free tags of the class body.
      18: ["SF006"],
      19: ["SF006"],
      20: ["MODULE-NOTE"],
      21: ["MODULE-NOTE"],
      // speky's models.py case: inside the untagged normalize_remote_url below the tagged class.
      22: [],
      23: [],
      24: ["MODULE-NOTE"],
      26: ["IN-HELPER"],
      27: ["IN-HELPER"],
      28: ["IN-HELPER"],
      // Past the end of the file.
      29: [],
      500: [],
    });
  });

  // speky:speky-ts#TNAV-FIND-BY-SPAN
  it("answers whole references, innermost definition first", async () => {
    expect(await ok(server.client, "find_code_references", { file: "src/models.py", line: 15 })).toEqual({
      references: [
        ref("src/models.py", 14, "Remote.host", "SF007"),
        ref("src/models.py", 9, "Remote", "SF006"),
        ref("src/models.py", 15, null, "IN-HOST"),
      ],
    });
  });

  // speky:speky-ts#TNAV-FIND-BY-SPAN
  it("TypeScript: methods of a tagged class, an untagged function after it, a free tag at the top", async () => {
    expect(await idsAt("src/cart.ts", [1, 2, 4, 5, 6, 9, 10, 13, 14, 17, 18, 19, 20, 21])).toEqual({
      1: ["TS-FILE"],
      2: ["TS-FILE"],
      4: ["TS-FILE"],
      5: ["TS-CART"],
      6: ["TS-CART"],
      9: ["TS-ADD", "TS-CART"],
      10: ["TS-ADD", "TS-CART"],
      13: ["TS-CART"],
      14: ["TS-CART"],
      17: ["TS-FILE"],
      18: [],
      19: [],
      20: [],
      21: [],
    });
  });

  // speky:speky-ts#TNAV-FIND-BY-SPAN
  it("Rust: attributes over several lines start a test's span; an untagged sibling names nothing", async () => {
    expect(await idsAt("src/parse.rs", [2, 3, 5, 7, 10, 11, 13, 14, 15, 17, 19, 22, 23])).toEqual({
      2: ["RS-PARSE"],
      3: ["RS-PARSE"],
      5: [],
      7: [],
      10: [],
      11: [],
      13: ["RS-FREE", "RS-TEST"],
      14: ["RS-FREE", "RS-TEST"],
      15: ["RS-FREE", "RS-TEST"],
      17: ["RS-FREE", "RS-TEST"],
      19: ["RS-FREE", "RS-TEST"],
      22: [],
      23: [],
    });
    expect(await ok(server.client, "find_code_references", { file: "src/parse.rs", line: 15 })).toEqual({
      // The tag inside the test belongs to it (docs/verification.md, "Free tags inside a test").
      references: [ref("src/parse.rs", 17, "tests::parses", "RS-FREE", true), ref("src/parse.rs", 17, "tests::parses", "RS-TEST", true)],
    });
  });

  // speky:speky-ts#TNAV-FIND-BY-SPAN
  it("TypeScript tests: a tagged it inside a tagged describe, an untagged it beside it", async () => {
    expect(await idsAt("src/cart.test.ts", [1, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15])).toEqual({
      1: [],
      3: [],
      4: ["TS-SUITE"],
      5: ["TS-SUITE"],
      6: ["TS-ADDS", "TS-FREE-IN-IT", "TS-SUITE"],
      8: ["TS-ADDS", "TS-FREE-IN-IT", "TS-SUITE"],
      9: ["TS-ADDS", "TS-FREE-IN-IT", "TS-SUITE"],
      10: ["TS-SUITE"],
      11: ["TS-SUITE"],
      12: ["TS-SUITE"],
      13: ["TS-SUITE"],
      14: ["TS-SUITE"],
      15: [],
    });
  });

  // speky:speky-ts#TNAV-FIND-BY-SPAN
  it("Java: annotations over several lines start a test's span; a free tag answers in its untagged method only", async () => {
    expect(await idsAt("src/java/CartTest.java", [1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])).toEqual({
      1: [],
      5: [],
      6: [],
      7: ["JAVA-TEST"],
      8: ["JAVA-TEST"],
      9: ["JAVA-TEST"],
      10: ["JAVA-TEST"],
      11: ["JAVA-TEST"],
      12: ["JAVA-TEST"],
      13: [],
      14: ["JAVA-FREE"],
      15: ["JAVA-FREE"],
      16: ["JAVA-FREE"],
      17: [],
      18: [],
    });
  });

  // speky:speky-ts#TNAV-FIND-BY-SPAN
  it("Go: a free tag answers inside its untagged function only", async () => {
    expect(await idsAt("src/shop.go", [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14])).toEqual({
      1: [],
      3: [],
      4: ["GO-PRICE"],
      5: ["GO-PRICE"],
      6: ["GO-PRICE"],
      7: [],
      8: ["GO-FREE"],
      9: ["GO-FREE"],
      10: ["GO-FREE"],
      11: ["GO-FREE"],
      12: [],
      13: [],
      14: [],
    });
  });
});

describe("test_plan_coverage when no manifest declares coverage_categories", () => {
  // speky:speky-ts#TNAV-COVERAGE-SCOPE
  it("counts every requirement, with or without a category", async () => {
    const all = (await ok(server.client, "test_plan_coverage")) as { no_test_plan: { id: string }[] };
    expect(all.no_test_plan).toHaveLength(19);
    expect(await ok(server.client, "test_plan_coverage", { category: "lookup" })).toEqual(all);
  });
});
