// `speky report` without a browser: the command line, the Markdown summary, determinism,
// escaping of a hostile specification, and the safety of the output folder.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plainText } from "../../src/text/markdown-inline.js";
import { placeItems } from "../../src/text/page-places.js";
import { runSpeky, tempDir } from "../support/process.js";
import { reportFixture } from "../support/report.js";

const OUR_ELEMENTS = new Set(
  (
    "html head meta title link script body a header nav ul ol li main footer p h1 h2 h3 h4 span section dl dt dd table caption thead " +
    "tbody tfoot tr th td div code pre blockquote time form label input select option button svg rect strong article colgroup col"
  ).split(" "),
);

const EPOCH = { SOURCE_DATE_EPOCH: "1767225600" }; // 2026-01-01T00:00:00Z

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}

describe("speky report", () => {
  // speky:speky-ts#TREPORT-CLI
  it("writes the site into speky-report/ by default and says where", () => {
    const dir = reportFixture("shop");
    const run = runSpeky(["report", "speky.yaml"], dir);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^speky: wrote speky-report\/index\.html \(6 pages, 0\.\d MB\)\n$/);
    expect(run.status).toBe(0);
    expect(listFiles(path.join(dir, "speky-report"))).toEqual([
      ".speky-report",
      "assets/index.js",
      "assets/item.js",
      "assets/report.css",
      "index.html",
      "matrix.html",
      "problems.html",
      "requirements/0001.html",
      "tests.html",
      "tests/0001.html",
    ]);
  });

  it("documents the command in --help and rejects bad usage with exit 2", () => {
    const help = runSpeky(["--help"]);
    expect(help.stdout).toContain("speky report [PATH...] [--out DIR] [--format html|markdown]");
    const noPath = runSpeky(["report"], tempDir());
    expect(noPath.status).toBe(2);
    expect(noPath.stderr).toContain("no manifest named, no ./speky.yaml");
    const badFormat = runSpeky(["report", "x.yaml", "--format", "pdf"]);
    expect(badFormat.status).toBe(2);
    expect(badFormat.stderr).toContain("must be one of html, markdown, not 'pdf'");
  });

  it("writes no report when the specs have errors, and prints them", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "reqs.yaml"), "kind: requirements\ncategory: c\nrequirements:\n  - id: A\n");
    const run = runSpeky(["report", "reqs.yaml"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("reqs.yaml:4:");
    expect(run.stderr).toContain("no report written");
    expect(existsSync(path.join(dir, "speky-report"))).toBe(false);
  });

  // speky:speky-ts#TREPORT-DETERMINISTIC
  it("is byte-identical across runs but for the generation line", () => {
    const dir = reportFixture("shop");
    const read = (out: string) =>
      Object.fromEntries(listFiles(path.join(dir, out)).map((f) => [f, readFileSync(path.join(dir, out, f), "utf8")]));
    expect(runSpeky(["report", "speky.yaml", "--out", "a"], dir, EPOCH).status).toBe(0);
    expect(runSpeky(["report", "speky.yaml", "--out", "b"], dir, EPOCH).status).toBe(0);
    expect(runSpeky(["report", "speky.yaml", "--out", "c"], dir, { SOURCE_DATE_EPOCH: "1767229200" }).status).toBe(0);
    const [a, b, c] = [read("a"), read("b"), read("c")];
    expect(b).toEqual(a);
    const changed = Object.keys(a).filter((f) => a[f] !== c[f]);
    expect(changed).toEqual(["index.html"]);
    const lines = (s: string) => s.split("\n");
    const differing = lines(a["index.html"]).filter((l, i) => l !== lines(c["index.html"])[i]);
    expect(differing).toHaveLength(1);
    expect(differing[0]).toMatch(
      /^<p class="generated">Generated <time datetime="2026-01-01T00:00:00Z">2026-01-01 00:00:00 UTC<\/time> from commit <code title="[0-9a-f]{40}">[0-9a-f]{12}<\/code>\.<\/p>$/,
    );
  });

  // speky:speky-ts#TREPORT-MARKDOWN
  it("prints the Markdown summary: counts, coverage per category, problems", () => {
    const dir = reportFixture("shop");
    const run = runSpeky(["report", "speky.yaml", "--format", "markdown"], dir, EPOCH);
    expect(run.status).toBe(0);
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, encoding: "utf8" }).trim();
    expect(run.stdout).toBe(
      [
        "## Traceability report: shop",
        "",
        `Generated 2026-01-01T00:00:00Z from commit ${commit.slice(0, 12)}.`,
        "",
        "| Requirements | Tests | Code references | Problems |",
        "| ---: | ---: | ---: | ---: |",
        "| 5 | 4 | 7 | 1 |",
        "",
        "### Coverage",
        "",
        "| Category | No test plan | Manual | Partially manual | Automated | Total | % automated |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        "| functional | 1 | 0 | 1 | 2 | 4 | 50% |",
        "| performance | 1 | 0 | 0 | 0 | 1 | 0% |",
        "| **All** | 2 | 0 | 1 | 2 | 5 | 40% |",
        "",
        "### Problems (1)",
        "",
        "- `src/cart.py:19:3`: error: tag speky:shop#CART-ADDD names an unknown ID 'CART-ADDD'; did you mean CART-ADD?",
        "",
      ].join("\n"),
    );
    const toFile = runSpeky(["report", "speky.yaml", "--format", "markdown", "--out", "md"], dir, EPOCH);
    expect(toFile.stdout).toBe("speky: wrote md/report.md\n");
    expect(readFileSync(path.join(dir, "md/report.md"), "utf8")).toBe(run.stdout);
  });

  // speky:speky-ts#TREPORT-HOSTILE
  it("escapes a hostile specification in HTML and Markdown", () => {
    const dir = reportFixture("hostile");
    expect(runSpeky(["report", "speky.yaml"], dir).status).toBe(0);
    const out = path.join(dir, "speky-report");
    for (const file of listFiles(out).filter((f) => f.endsWith(".html"))) {
      const html = readFileSync(path.join(out, file), "utf8");
      // The only script elements are ours; no event handler or javascript: URL from the spec.
      expect(html.match(/<script[^>]*>/g) ?? []).toEqual(
        file === "index.html"
          ? ['<script src="assets/index.js" defer>', '<script type="application/json" id="report-data">']
          : file.includes("/")
            ? ['<script src="../assets/item.js" defer>']
            : [],
      );
      // Escaped text holds no '<': every '<' opens one of our elements, and none has an event handler.
      const tags = [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)];
      expect(tags.map((t) => t[1].toLowerCase()).filter((name) => !OUR_ELEMENTS.has(name))).toEqual([]);
      const attributes = tags.flatMap((t) => [...t[2].matchAll(/\s([^\s=]+)(?:="[^"]*")?/g)].map((a) => a[1].toLowerCase()));
      expect(attributes.filter((a) => a.startsWith("on"))).toEqual([]);
      expect(html).not.toMatch(/href="javascript:/i);
    }
    const index = readFileSync(path.join(out, "index.html"), "utf8");
    expect(index).toContain("&lt;img src=x onerror=alert(&#39;short&#39;)&gt;");
    const json = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(index)![1];
    expect(JSON.parse(json).rows.map((r: string[]) => r[0])).toContain("X</script><script>alert(1)</script>");

    const md = runSpeky(["report", "speky.yaml", "--format", "markdown"], dir).stdout;
    // Each mark that could open markup is escaped (a backslash before it); the rest reads as written.
    expect(md).not.toMatch(/(?<!\\)<script|(?<!\\)@everyone|(?<!\\)\]\(javascript/);
    expect(plainText("a\n# b @c <d> [e](f) | g")).toBe("a # b \\@c \\<d> \\[e\\](f) \\| g");
  });

  it("gives hostile IDs unique, portable anchors", () => {
    const places = placeItems(["../../etc/passwd", "CASE", "Case", "X</script>", "main", "main-2"]);
    expect([...places.values()].map((p) => p.anchor)).toEqual([".._.._etc_passwd", "CASE", "Case-2", "X__script_", "main-2", "main-2-2"]);
    expect(new Set([...places.values()].map((p) => p.file))).toEqual(new Set(["0001.html"]));
    expect(placeItems(Array.from({ length: 201 }, (_, i) => `R${String(i).padStart(3, "0")}`)).get("R200")).toEqual({
      file: "0003.html",
      anchor: "R200",
    });
  });

  // speky:speky-ts#TREPORT-OUTPUT
  it("writes only into an empty folder or its own previous report, never through a planted link", () => {
    const dir = reportFixture("shop");
    mkdirSync(path.join(dir, "notes"));
    writeFileSync(path.join(dir, "notes/todo.txt"), "mine");
    const foreign = runSpeky(["report", "speky.yaml", "--out", "notes"], dir);
    expect(foreign.status).toBe(2);
    expect(foreign.stderr).toContain("is not empty and was not written by speky report");
    expect(readFileSync(path.join(dir, "notes/todo.txt"), "utf8")).toBe("mine");

    expect(runSpeky(["report", "speky.yaml"], dir).status).toBe(0);
    // A previous report with planted links (a hostile checkout can ship one): replaced, targets untouched.
    const victim = path.join(dir, "victim.txt");
    writeFileSync(victim, "keep");
    const out = path.join(dir, "speky-report");
    execFileSync("rm", ["-rf", path.join(out, "index.html"), path.join(out, "tests")]);
    symlinkSync(victim, path.join(out, "index.html"));
    symlinkSync(dir, path.join(out, "tests"));
    expect(runSpeky(["report", "speky.yaml"], dir).status).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe("keep");
    expect(readFileSync(path.join(out, "index.html"), "utf8")).toContain("<!doctype html>");
    expect(existsSync(path.join(dir, "0001.html"))).toBe(false);

    symlinkSync(out, path.join(dir, "linked"));
    const linked = runSpeky(["report", "speky.yaml", "--out", "linked"], dir);
    expect(linked.status).toBe(2);
    expect(linked.stderr).toContain("is a symbolic link");
  });
});
