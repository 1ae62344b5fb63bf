// The report's one stylesheet, written to assets/report.css: system fonts only (nothing
// fetched), light and dark from prefers-color-scheme, narrow screens, and print.
export const STYLESHEET = `:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --head: #f6f8fa;
  --link: #0550ae; --focus: #bf3989; --row: #f6f8fa;
  --none: #cf222e; --manual: #9a6700; --partial: #0969da; --auto: #1a7f37;
  --none-bg: #ffebe9; --manual-bg: #fff8c5; --partial-bg: #ddf4ff; --auto-bg: #dafbe1;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --head: #161b22;
    --link: #4493f8; --focus: #ff80c8; --row: #151b23;
    --none: #ff7b72; --manual: #d29922; --partial: #58a6ff; --auto: #3fb950;
    --none-bg: #3c1618; --manual-bg: #3a2d0a; --partial-bg: #0c2d6b; --auto-bg: #0f3b1c;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, [tabindex]:focus-visible, summary:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px;
}
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
pre { background: var(--head); border: 1px solid var(--line); padding: 0.5rem; overflow-x: auto; }
.skip { position: absolute; left: -10000px; top: 0; background: var(--bg); padding: 0.5rem; z-index: 2; }
.skip:focus { left: 0.5rem; }
.vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.site { border-bottom: 1px solid var(--line); background: var(--head); }
header.site ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; margin: 0 auto; padding: 0.6rem 1rem; max-width: 80rem; }
header.site a { text-decoration: none; font-weight: 600; }
header.site a[aria-current="page"] { text-decoration: underline; text-underline-offset: 0.3em; }
.count { display: inline-block; min-width: 1.5em; padding: 0 0.35em; border-radius: 1em; background: var(--line); color: var(--fg); font-size: 0.8em; text-align: center; }
main { display: block; margin: 0 auto; padding: 1rem; max-width: 80rem; }
main:focus { outline: none; }
footer.site { margin: 2rem auto 0; padding: 1rem; max-width: 80rem; color: var(--muted); font-size: 0.85rem; border-top: 1px solid var(--line); }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.5rem 0; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 1.75rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 0.25rem; overflow-wrap: anywhere; }
.sub, .kind, .generated, .status, .none { color: var(--muted); }
.sub { font-weight: normal; font-size: 0.75em; }
.kind { margin: 0; text-transform: uppercase; letter-spacing: 0.05em; font-size: 0.8rem; }
.id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-weight: 600; overflow-wrap: anywhere; }
.text { white-space: pre-line; overflow-wrap: anywhere; }
blockquote.text { margin: 0.5rem 0; padding: 0.25rem 1rem; border-left: 4px solid var(--line); }
.counts { list-style: none; display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; padding: 0; }
.counts strong { font-size: 1.4rem; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 1rem 0; }
.facts dt { font-weight: 600; }
.uncommitted { color: var(--text, inherit); }
.text-change { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.75rem; margin: 0; }
.text-change dt { color: var(--muted); }
.text-change dd { margin: 0; white-space: pre-line; overflow-wrap: anywhere; }
.text-change dd.was { text-decoration: line-through; text-decoration-color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.tag { display: inline-block; padding: 0 0.4em; margin: 0.05rem 0; border: 1px solid var(--line); border-radius: 0.3em; font-size: 0.85em; overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 0 0.5em; border-radius: 1em; font-size: 0.8rem; font-weight: 600; white-space: nowrap; border: 1px solid currentColor; }
.badge.no_test_plan { color: var(--none); background: var(--none-bg); }
.badge.manual_test_plan { color: var(--manual); background: var(--manual-bg); }
.badge.partially_manual_test_plan { color: var(--partial); background: var(--partial-bg); }
.badge.automated_test_plan { color: var(--auto); background: var(--auto-bg); }
.badge.external { color: var(--muted); }
.badge.status-failed, .badge.status-failing { color: var(--none); background: var(--none-bg); }
.badge.status-incomplete, .badge.status-partially_verified, .badge.status-skipped { color: var(--partial); background: var(--partial-bg); }
.badge.status-passed, .badge.status-verified { color: var(--auto); background: var(--auto-bg); }
.badge.status-manual, .badge.status-not_run, .badge.status-unverified { color: var(--muted); }
ul.runs { margin: 0.25em 0 0; padding-left: 1.2em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; }
caption { text-align: left; color: var(--muted); padding: 0.25rem 0; }
th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); }
thead th { background: var(--head); position: sticky; top: 0; }
tbody tr:nth-child(even) { background: var(--row); }
/* A fixed layout: showing other rows never re-measures the whole table. */
table.requirements { table-layout: fixed; min-width: 52rem; }
col.c-id { width: 11rem; } col.c-category { width: 9rem; } col.c-tags { width: 11rem; } col.c-coverage { width: 9.5rem; } col.c-num { width: 4.5rem; }
table.requirements td { overflow-wrap: anywhere; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
th button { all: inherit; cursor: pointer; padding: 0; border: 0; background: none; }
th button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
td.chart, th.chart { width: 30%; min-width: 8rem; }
svg.bar { display: block; width: 100%; height: 1.1rem; border: 1px solid var(--line); }
svg.bar .no_test_plan, .swatch.no_test_plan { fill: var(--none); background: var(--none); }
svg.bar .manual_test_plan, .swatch.manual_test_plan { fill: var(--manual); background: var(--manual); }
svg.bar .partially_manual_test_plan, .swatch.partially_manual_test_plan { fill: var(--partial); background: var(--partial); }
svg.bar .automated_test_plan, .swatch.automated_test_plan { fill: var(--auto); background: var(--auto); }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0; margin: 0.5rem 0; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.35em; vertical-align: -0.1em; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
.filters { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; margin: 0.5rem 0; }
.filters[hidden] { display: none; }
.field { display: flex; flex-direction: column; }
.field.grow { flex: 1 1 16rem; }
label { font-weight: 600; font-size: 0.9rem; }
input, select, button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 0.3rem; padding: 0.35rem 0.5rem; }
button { cursor: pointer; }
.steps > li { margin-bottom: 0.5rem; }
.steps p { margin: 0.1rem 0; }
.label { font-weight: 600; color: var(--muted); }
.items:has(> article:target) > article:not(:target), main:has(article:target) > .chunk-note { display: none; }
article.item { border-top: 2px solid var(--line); margin-top: 1.5rem; padding-top: 0.5rem; }
article.item:target { border-top: 0; margin-top: 0; }
article.item > h2 { font-size: 1.6rem; border: 0; margin: 0.25rem 0 0.5rem; }
h1.chunk-title { font-size: 1.1rem; color: var(--muted); }
article.item h3 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
h4 { font-size: 1.05rem; margin: 0.75rem 0 0.25rem; overflow-wrap: anywhere; }
div.test { border: 1px solid var(--line); border-radius: 0.4rem; padding: 0 1rem 0.5rem; margin: 0.75rem 0; }
.comments { list-style: none; padding: 0; }
.comments li { border-left: 4px solid var(--line); padding-left: 0.75rem; margin: 0.75rem 0; }
.comments .meta { margin: 0; color: var(--muted); font-size: 0.9rem; }
ul.inline { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.1rem 1rem; }
.mark.automated { color: var(--auto); }
.mark.manual { color: var(--manual); }
.matrix.grid td.mark-cell { text-align: center; }
.matrix.grid th.test-col { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font-weight: normal; }
tr.error td:first-child { color: var(--none); font-weight: 600; }
tr.warning td:first-child { color: var(--manual); font-weight: 600; }
@media (max-width: 40rem) {
  main { padding: 0.75rem; }
  h1 { font-size: 1.35rem; }
  .facts { grid-template-columns: 1fr; }
  .facts dd { margin-bottom: 0.5rem; }
  table.requirements { min-width: 0; table-layout: auto; }
  table.requirements td { overflow-wrap: break-word; }
  table.requirements .id { overflow-wrap: break-word; }
  table.requirements col { width: auto; }
  table.requirements th:nth-child(3), table.requirements td:nth-child(3),
  table.requirements th:nth-child(4), table.requirements td:nth-child(4),
  table.requirements th:nth-child(7), table.requirements td:nth-child(7) { display: none; }
}
@media print {
  :root { --bg: #fff; --fg: #000; --muted: #333; --line: #999; --head: #eee; --row: #fff; --link: #000; }
  header.site, .skip, .filters, .more, footer.site { display: none !important; }
  main { max-width: none; padding: 0; }
  a { text-decoration: none; }
  .scroll { overflow: visible; }
  thead th { position: static; }
  tr, div.test, li { break-inside: avoid; }
  article.item { break-before: page; border: 0; }
  article.item:first-child, article.item:target { break-before: auto; }
  h2, h3 { break-after: avoid; }
}
`;
