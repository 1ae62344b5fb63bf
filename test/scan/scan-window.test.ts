// Where a tagged file's parse may start (src/scan/window.ts): from the text alone, so every
// text must get an answer, and a start inside a comment, a string, a block or an `#if` must be
// refused. That the windows it finds answer as whole parses do: test/scan/scan-prefix.test.ts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { windowPoints } from "../../src/scan/engine/window.js";

const T = "speky" + ":p#R1";

/** The window's points for a text whose tag is written where `@@` is. */
function pointsOf(source: string, mode: "braces" | "offside", barrier?: string) {
  const text = source.replace("@@", `// ${T}`).replace("%%", `# ${T}`);
  const first = text.indexOf(T);
  const points = windowPoints(text, first, mode, barrier, undefined);
  return { text, points, lines: points?.map((p) => text.slice(p, text.indexOf("\n", p))) };
}

describe("a parse window's start", () => {
  // speky:speky-ts#TSCAN-WINDOW
  it("is found or refused for every line of any text, leading blank lines and edges included", () => {
    const texts = [
      "",
      "\n",
      "\n\n\n",
      "a",
      "\n\nx\n",
      "\nimport a\n\ndef f():\n  pass\n",
      "}\n}\n\nx\n",
      "/*\n\n*/\n\nx\n",
      readFileSync(new URL(import.meta.url), "utf8"),
    ];
    let calls = 0;
    for (const text of texts) {
      for (let i = 0; i <= text.length; i++) {
        if (i > 0 && text[i - 1] !== "\n") continue;
        for (const mode of ["offside", "braces"] as const) {
          const points = windowPoints(text, i, mode, undefined, undefined);
          if (points) {
            expect(points[0]).toBeGreaterThan(0);
            expect(points[0]).toBeLessThanOrEqual(i);
          }
          calls++;
        }
      }
    }
    expect(calls).toBeGreaterThan(100);
  });

  it("is the top-level declaration holding the tag, and with braces its block's header and the tag's member", () => {
    const java =
      "package x;\n\nimport a.b;\n\npublic class Foo extends Bar {\n    int x = 1;\n\n    void a() { if (x) { y(); } }\n\n    @@\n    void m() {}\n}\n";
    const { lines, points, text } = pointsOf(java, "braces");
    expect(lines).toEqual(["public class Foo extends Bar {", "", `    // ${T}`]);
    expect(text[points![1] - 1]).toBe("{");
    const python = "import os\n\nclass A(B,\n        C):\n    x = 1\n\n    def g(self): pass\n\n    %%\n    def f(self): pass\n";
    expect(pointsOf(python, "offside").lines).toEqual(["class A(B,", "    x = 1", `    # ${T}`]);
    // A member the test rule reads (pytest's __init__) is never skipped: the members start there.
    const init = python.replace("def g(self)", "def __init__(self)").replace("%%", `# ${T}`);
    expect(windowPoints(init, init.indexOf(T), "offside", undefined, /^__init__$/)?.[2]).toBe(init.indexOf("    def __init__"));
  });

  it("is never inside a block comment, a string, a template literal, an #if or a block", () => {
    const inside = [
      "int a;\n\n/*\n\nint b;\n\n@@\nint f() {}\n*/\n",
      'String s = """\n\nint b;\n\n@@\nint f() {}\n""";\n',
      "const s = `\n\nfunction b() {}\n\n@@\nfunction f() {}\n`;\n",
      "#if X\n\nint b;\n\n@@\nint f() {}\n#endif\n",
      "namespace n {\n\nint b;\n\n@@\nint f() {}\n}\n",
    ];
    for (const source of inside) {
      const { points } = pointsOf(source, "braces");
      // A window may start before the construct, never inside it.
      const text = source.replace("@@", `// ${T}`);
      const opener = /\/\*|"""|`|#if|\{/.exec(text)!.index;
      expect(points === null || points[0] <= opener, source).toBe(true);
    }
    expect(pointsOf('x = """\n\ndef b(): pass\n\n%%\ndef f(): pass\n"""\n', "offside").points).toBeNull();
    expect(pointsOf("x = f(\n\nb,\n\n%%\n)\n", "offside").points).toBeNull();
  });

  it("is found or refused in linear time on hostile text: escaped quotes on one long line, deep braces", () => {
    const quotes = `x;\n\n${"'\\".repeat(200_000)}\n\n// ${T}\nint f() {}\n`;
    const braces = `x;\n\n${"{\n".repeat(100_000)}\n// ${T}\nint f() {}\n`;
    for (const text of [quotes, braces]) {
      const points = windowPoints(text, text.indexOf(T), "braces", undefined, undefined);
      expect(points === null || points[0] <= text.indexOf(T)).toBe(true);
    }
  });

  it("is refused after a line the language's windowBarrier matches (C#'s file-scoped namespace)", () => {
    const cs = "namespace Shop.Tests;\n\npublic class A {}\n\n@@\npublic class B {}\n";
    expect(pointsOf(cs, "braces").points).not.toBeNull();
    expect(pointsOf(cs, "braces", "^[ \\t]*namespace\\s+[\\w.]+\\s*;").points).toBeNull();
  });
});
