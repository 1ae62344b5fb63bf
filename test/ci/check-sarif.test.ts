// `speky check --format sarif`: the built binary on the CI trees (test/support/ci-trees.ts),
// its logs validated by Microsoft's SARIF Multitool (the npm package's Linux binary) with the
// SARIF and GitHub ingestion rules, once for every log.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_RULES, ruleIndexOf } from "../../src/commands/check-rules.js";
import { FINGERPRINT_KEY, MAX_SARIF_RESULTS, relativeUri, sarifReport, sarifText } from "../../src/commands/check-sarif.js";
import type { Diagnostic } from "../../src/diagnostics.js";
import { tooLargeMessage } from "../../src/scan/engine/file.js";
import { MESSAGES } from "../../src/scan/engine/tag.js";
import { VERSION } from "../../src/version.js";
import { PASSING_TREE, resultsTreeFiles, SPEC_ERRORS_TREE, type TreeFiles, writeTree } from "../support/ci-trees.js";
import { runSpeky, scratchFolders } from "../support/process.js";

const scratch = scratchFolders();
afterAll(scratch.remove);

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: { startLine: number } } }[];
  partialFingerprints: Record<string, string>;
}
interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; version: string; informationUri: string; rules: { id: string; help: { text: string } }[] } };
    originalUriBaseIds: Record<string, { uri: string }>;
    results: SarifResult[];
  }[];
}

/** A git repository holding `files` (the repository root is what SARIF's paths are relative to). */
function repo(files: TreeFiles): string {
  const dir = writeTree(scratch.tempDir("speky-sarif-"), files);
  spawnSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

function sarif(dir: string, args: string[] = [], cwd = dir): { log: SarifLog; text: string; status: number | null } {
  const r = runSpeky(["check", ...args, "--format", "sarif"], cwd);
  return { log: JSON.parse(r.stdout) as SarifLog, text: r.stdout, status: r.status };
}

const multitool = createRequire(import.meta.url)("@microsoft/sarif-multitool-linux") as string;
/** SARIF2006 asks the network whether each URI is reachable: the suites never use the network. */
const MULTITOOL_CONFIG = `<?xml version="1.0" encoding="utf-8"?>
<Properties>
  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">
    <Property Key="RuleEnabled" Value="Disabled" />
  </Properties>
</Properties>
`;

// speky:speky-ts#TCHECK-SARIF-VALID
describe("speky check --format sarif", () => {
  // The three trees' logs, made once: the spec errors, the results (--require-verified), a pass.
  let specs = "";
  let logs: ReturnType<typeof sarif>[] = [];
  beforeAll(() => {
    specs = repo(SPEC_ERRORS_TREE);
    const results = repo({ ...resultsTreeFiles(true), "reports/broken.xml": "<testsuite" });
    logs = [sarif(specs), sarif(results, ["--results", "reports/*.xml", "--require-verified"]), sarif(repo(PASSING_TREE))];
  });

  it("gives one rule per kind of finding, with the tool, levels as check's and paths from the repository root", () => {
    expect(logs.map((l) => l.status)).toEqual([1, 1, 0]);
    const seen = new Set(logs.flatMap((l) => l.log.runs[0].results.map((r) => r.ruleId)));
    // Every kind has a finding here, but the bound's (tested below).
    const kinds = CHECK_RULES.map((r) => r.id).filter((id) => id !== "speky/findings-left-out");
    expect([...seen].sort()).toEqual(kinds.sort());
    for (const { log } of logs) {
      const run = log.runs[0];
      expect(run.tool.driver).toMatchObject({ name: "speky-ts", version: VERSION, informationUri: expect.stringMatching(/^https:\/\//) });
      expect(run.tool.driver.rules.map((r) => r.id)).toEqual(CHECK_RULES.map((r) => r.id));
      for (const r of run.results) {
        expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
        expect(r.locations[0].physicalLocation.artifactLocation.uriBaseId).toBe("%SRCROOT%");
      }
    }
    // The levels are check's severities, finding for finding.
    const text = runSpeky(["check"], specs).stdout;
    expect(logs[0].log.runs[0].results.map((r) => r.level)).toEqual(
      text.split("\n").flatMap((line) => /: (error|warning): /.exec(line)?.[1] ?? []),
    );
    // speky:speky-ts#TCHECK-SARIF-RESULTS
    const failed = logs[1].log.runs[0].results.find((r) => r.ruleId === "speky/test-failed")!;
    expect(failed.message.text).toContain("test plan T-BAD (verifies R-BAD) failed: failure of test_bad\\[2\\] (reports/pytest.xml:5:70)");
    expect(failed.locations[0].physicalLocation).toMatchObject({
      artifactLocation: { uri: "tests/test_shop.py" },
      // The test's definition, where check places a failed test (as speky scan reports it).
      region: { startLine: 11 },
    });
  });

  it("passes the SARIF Multitool's SARIF and GitHub ingestion rules (validate --rule-kind Sarif;Gh): no error, no warning", () => {
    const folder = scratch.tempDir("speky-sarif-logs-");
    const files = logs.map((l, i) => {
      const file = path.join(folder, `log${i}.sarif`);
      writeFileSync(file, l.text);
      return file;
    });
    const out = path.join(folder, "validation.sarif");
    const config = path.join(folder, "multitool.xml");
    writeFileSync(config, MULTITOOL_CONFIG);
    const validate = ["validate", "--rule-kind", "Sarif;Gh", "--level", "Error;Warning", "--config", config, "--output", out];
    const ran = spawnSync(multitool, [...validate, ...files], {
      encoding: "utf8",
      env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: "1" },
    });
    expect(ran.stdout).toContain(`Done. ${files.length} files scanned.`);
    const validation = JSON.parse(readFileSync(out, "utf8")) as SarifLog;
    expect(validation.runs[0].results.map((r) => `${r.ruleId}: ${JSON.stringify(r.message)}`)).toEqual([]);
    expect(ran.status).toBe(0);
  });

  // speky:speky-ts#TCHECK-SARIF-FINGERPRINTS
  it("keeps each finding's fingerprint when lines move above it, and is byte-identical across runs", () => {
    const dir = repo(SPEC_ERRORS_TREE);
    const before = sarif(dir);
    expect(sarif(dir).text).toBe(before.text);
    const moved = Object.fromEntries(
      Object.entries(SPEC_ERRORS_TREE).map(([f, text]) => [f, f.endsWith(".py") ? `\n\n# moved\n${text}` : text]),
    );
    writeTree(dir, {
      ...moved,
      "specs/requirements.yaml": SPEC_ERRORS_TREE["specs/requirements.yaml"].replace("colour: blue\n", "colour: blue\n# moved\n"),
    });
    const after = sarif(dir).log.runs[0].results;
    const key = (r: SarifResult) => `${r.ruleId} ${r.partialFingerprints[FINGERPRINT_KEY]}`;
    expect(after.map(key).sort()).toEqual(before.log.runs[0].results.map(key).sort());
    // The lines did move.
    const line = (results: SarifResult[], rule: string) =>
      results.find((r) => r.ruleId === rule)!.locations[0].physicalLocation.region!.startLine;
    expect(line(after, "speky/unknown-id-in-code")).toBe(line(before.log.runs[0].results, "speky/unknown-id-in-code") + 3);
    expect(line(after, "speky/duplicate-id")).toBe(line(before.log.runs[0].results, "speky/duplicate-id") + 1);
    // Each fingerprint is unique within the run.
    expect(new Set(after.map(key)).size).toBe(after.length);
  });

  it("names files relative to the repository root from a subfolder, the root in originalUriBaseIds; --output writes the log", () => {
    const dir = repo(SPEC_ERRORS_TREE);
    const r = runSpeky(["check", "../speky.yaml", "--format", "sarif", "--output", "out.sarif"], path.join(dir, "src"));
    expect(r).toMatchObject({ status: 1, stdout: "" });
    const log = JSON.parse(readFileSync(path.join(dir, "src/out.sarif"), "utf8")) as SarifLog;
    const uris = log.runs[0].results.map((x) => x.locations[0].physicalLocation.artifactLocation.uri);
    expect(uris).toContain("src/shop.py");
    expect(uris).toContain("specs/tests.yaml");
    expect(log.runs[0].originalUriBaseIds["%SRCROOT%"].uri).toMatch(/^file:\/\/\/.*\/$/);
  });

  // speky:speky-ts#TCHECK-SARIF-BOUND
  it("keeps at most 25,000 results, errors first, the last one counting those left out", () => {
    const at = (i: number, severity: "error" | "warning"): Diagnostic => ({
      file: `src/f${i % 7}.py`,
      line: i + 1,
      column: 1,
      severity,
      message: `tag in code is not a tag ${i}`,
    });
    const findings = [
      ...Array.from({ length: 20_000 }, (_, i) => at(i, "warning")),
      ...Array.from({ length: 5_003 }, (_, i) => at(i, "error")),
    ];
    const results = (JSON.parse(sarifReport(findings, "/repo")) as SarifLog).runs[0].results;
    expect(results.length).toBe(MAX_SARIF_RESULTS);
    expect(results.filter((r) => r.level === "error").length).toBe(5_003);
    expect(results.at(-1)).toMatchObject({ ruleId: "speky/findings-left-out", level: "warning" });
    expect(results.at(-1)!.message.text).toBe(
      "4 more findings are left out: code scanning takes 25,000 per run (speky check prints them all)",
    );
    expect(new Set(results.map((r) => r.partialFingerprints[FINGERPRINT_KEY])).size).toBe(MAX_SARIF_RESULTS);
  });

  it("files the scanner's every tag message, and a cap's count of one, under the code-tag rule", () => {
    const rule = (message: string, severity: "error" | "warning" = "warning") =>
      CHECK_RULES[ruleIndexOf({ file: "a.py", line: 1, column: 1, severity, message })].id;
    for (const message of [...Object.values(MESSAGES), tooLargeMessage(5 * 1024 * 1024)]) expect(rule(message)).toBe("speky/code-tag");
    expect(rule(`12 more tags in this file: ${MESSAGES.inCode}`)).toBe("speky/code-tag");
    expect(rule("3 more errors like this in this file: duplicate ID 'X' (first defined at a.yaml:1:1)", "error")).toBe(
      "speky/duplicate-id",
    );
    // A message of no known shape falls to the generic rule of its severity.
    expect([rule("something new", "error"), rule("something new")]).toEqual(["speky/spec-invalid", "speky/spec-warning"]);
  });

  // speky:speky-ts#TCHECK-SARIF-BOUND
  it("escapes what would make a link, a URI part or a line: '[x](0)', '#', '?', control characters", () => {
    expect(sarifText("unknown ID '[x](0)' \\ \n")).toBe("unknown ID '\\[x\\](0)' \\\\ \\n");
    expect(relativeUri("src/a #b?c/x:y%.py")).toBe("src/a%20%23b%3Fc/x%3Ay%25.py");
    for (const rule of CHECK_RULES) expect(rule.help.length).toBeGreaterThan(20);
  });
});
