// The frame of every page: landmarks, navigation, one stylesheet shipped beside the pages,
// and a Content-Security-Policy that forbids any network request and any inline script,
// so that even a missed escape could not run a repository's script.

import { esc } from "../../text/html-escape.js";
import { VERSION } from "../../version.js";

export type Section = "index" | "tests" | "matrix" | "problems" | "changes" | "none";

export interface PageSpec {
  title: string;
  /** "" for pages at the report's root, "../" for pages one folder down. */
  root: string;
  section: Section;
  /** False when the page belongs to the section without being its page (a chunk of items). */
  current?: boolean;
  body: string;
  /** Scripts shipped in assets/, by file name. */
  scripts?: string[];
  /** Number of problems, shown in the navigation. */
  problems: number;
  /** The report has a "changes" page (speky report --diff). */
  changes?: boolean;
}

const CSP = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

const NAV: { section: Section; href: string; label: string }[] = [
  { section: "index", href: "index.html", label: "Requirements" },
  { section: "tests", href: "tests.html", label: "Tests" },
  { section: "matrix", href: "matrix.html", label: "Matrix" },
  { section: "problems", href: "problems.html", label: "Problems" },
  { section: "changes", href: "changes.html", label: "Changes" },
];

// speky:speky-ts#REPORT-ACCESSIBLE
export function page(spec: PageSpec): string {
  const nav = NAV.filter((n) => n.section !== "changes" || spec.changes)
    .map((n) => {
      const current = n.section === spec.section && spec.current !== false ? ' aria-current="page"' : "";
      const label = n.section === "problems" ? `${n.label} <span class="count">${spec.problems}</span>` : n.label;
      return `<li><a href="${spec.root}${n.href}"${current}>${label}</a></li>`;
    })
    .join("");
  const scripts = (spec.scripts ?? []).map((s) => `<script src="${spec.root}assets/${s}" defer></script>\n`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="speky-ts ${VERSION}">
<title>${esc(spec.title)}</title>
<link rel="stylesheet" href="${spec.root}assets/report.css">
${scripts}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><nav aria-label="Report"><ul>${nav}</ul></nav></header>
<main id="main" tabindex="-1">
${spec.body}
</main>
<footer class="site"><p>Traceability report made by speky-ts ${VERSION}.</p></footer>
</body>
</html>
`;
}

/** Marks where the body goes; nothing after it in a page is the repository's (lastIndexOf finds ours). */
const BODY_SLOT = "<!--speky:body-->";

// speky:speky-ts#SEC-REPORT-BOUNDS
/** A page as pieces, its body given piece by piece: a large page is never one string. */
export function* pageParts(spec: Omit<PageSpec, "body">, body: Iterable<string>): Generator<string> {
  const html = page({ ...spec, body: BODY_SLOT });
  const at = html.lastIndexOf(BODY_SLOT);
  yield html.slice(0, at);
  yield* body;
  yield html.slice(at + BODY_SLOT.length);
}
