// `speky check --format sarif`: the findings as one SARIF 2.1.0 log, for GitHub code scanning
// (docs/ci.md). Paths are relative to the repository root (%SRCROOT%), one rule per kind of
// finding (check-rules.ts), and each result carries a fingerprint of what it is, not where:
// lines added above a finding leave its alert the same one.
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { type Diagnostic, escapeControl, lineSafeJson } from "../diagnostics.js";
import { VERSION } from "../version.js";
import { CHECK_RULES, kindMessage, ruleIndexOf } from "./check-rules.js";

/** Where the tool's documentation lives (SARIF's tool.driver.informationUri). */
export const INFORMATION_URI = "https://www.npmjs.com/package/speky-ts";
const SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/** The key of our fingerprint in partialFingerprints; its version changes when what it hashes does. */
export const FINGERPRINT_KEY = "spekyFinding/v1";
/** Results code scanning takes in one run: an upload holding more is rejected whole. */
export const MAX_SARIF_RESULTS = 25_000;

/**
 * A path relative to the root as a URI reference: each segment percent-encoded, so that no
 * file name (a '#', a '?', a ':' before any '/', a control character) reads as another URI part.
 */
export function relativeUri(file: string): string {
  return file
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/**
 * SARIF reads `[text](target)` in a plain-text message as a link; '\' escapes '[', ']' and
 * itself (SARIF 2.1.0 §3.11.6). A repository's text never makes a link, nor starts a line.
 */
export function sarifText(message: string): string {
  return escapeControl(message.replace(/[[\]\\]/g, (c) => `\\${c}`));
}

/**
 * What a finding is, independent of its line: its rule, file and message, with the positions
 * in the message ("first defined at a.yaml:12:3", "(results.xml:40)") and the cap's counts
 * left out. The same finding twice in one file is told apart by its rank among its equals.
 */
function fingerprintSubject(ruleId: string, d: Diagnostic): string {
  const message = kindMessage(d.message).replace(/:\d+(?::\d+)?\b/g, ":N");
  return `${ruleId}\0${d.file}\0${message}`;
}

function location(d: Diagnostic): object[] {
  if (d.file === "") return [];
  const artifactLocation = { uri: relativeUri(d.file), uriBaseId: "%SRCROOT%" };
  // A finding about a whole file (line 0) is shown at its first line: code scanning wants a region.
  const region = d.line > 0 ? { startLine: d.line, ...(d.column > 0 ? { startColumn: d.column } : {}) } : { startLine: 1 };
  return [{ physicalLocation: { artifactLocation, region } }];
}

function sarifRules(): object[] {
  return CHECK_RULES.map((r) => ({
    id: r.id,
    name: r.name,
    shortDescription: { text: r.short },
    fullDescription: { text: r.full },
    help: { text: r.help, markdown: r.help },
    defaultConfiguration: { level: r.level },
    helpUri: INFORMATION_URI,
    properties: { tags: ["traceability"] },
  }));
}

// speky:speky-ts#SEC-SARIF-BOUND
/**
 * At most MAX_SARIF_RESULTS findings, the errors first (each severity in check's order); past
 * that, the last one kept says how many were left out, at the place of the first of them.
 */
export function boundedFindings(findings: readonly Diagnostic[], max = MAX_SARIF_RESULTS): Diagnostic[] {
  if (findings.length <= max) return [...findings];
  const ranked = [...findings.filter((d) => d.severity === "error"), ...findings.filter((d) => d.severity !== "error")];
  const first = ranked[max - 1];
  const left = ranked.length - (max - 1);
  const message = `${left.toLocaleString("en-US")} more findings are left out: code scanning takes ${max.toLocaleString("en-US")} per run (speky check prints them all)`;
  return [...ranked.slice(0, max - 1), { ...first, message }];
}

// speky:speky-ts#CHECK-SARIF
/** The SARIF log of the findings (sorted as check sorts them); `root`: the repository root they are relative to. */
export function sarifReport(findings: readonly Diagnostic[], root: string): string {
  const seen = new Map<string, number>();
  const results = boundedFindings(findings).map((d) => {
    const ruleIndex = ruleIndexOf(d);
    const ruleId = CHECK_RULES[ruleIndex].id;
    const subject = fingerprintSubject(ruleId, d);
    const rank = seen.get(subject) ?? 0;
    seen.set(subject, rank + 1);
    const hash = createHash("sha256").update(`${subject}\0${rank}`).digest("hex");
    return {
      ruleId,
      ruleIndex,
      level: d.severity,
      message: { text: sarifText(d.message) },
      locations: location(d),
      partialFingerprints: { [FINGERPRINT_KEY]: hash },
    };
  });
  const rootUri = pathToFileURL(root).href;
  const log = {
    $schema: SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "speky-ts",
            version: VERSION,
            semanticVersion: VERSION,
            informationUri: INFORMATION_URI,
            rules: sarifRules(),
          },
        },
        originalUriBaseIds: { "%SRCROOT%": { uri: rootUri.endsWith("/") ? rootUri : `${rootUri}/` } },
        columnKind: "unicodeCodePoints",
        results,
      },
    ],
  };
  return `${lineSafeJson(JSON.stringify(log, null, 2))}\n`;
}
