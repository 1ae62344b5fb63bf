const { loadLanguage, querySource } = await import("/work/wt/speed/dist/scan/runtime.js");
const { Query } = await import("/work/wt/speed/node_modules/web-tree-sitter/tree-sitter.js");
const id = process.argv[2];
const l = await loadLanguage(id);
new Query(l.parser.language, "(comment) @c");
const src = querySource(l.row).split("\n").filter(x => !x.trim().startsWith(";")).join("\n");
// split top-level patterns by paren depth
const pats = []; let depth = 0, cur = "";
for (const ch of src) { cur += ch; if (ch === "(" || ch === "[") depth++; if (ch === ")" || ch === "]") { depth--; if (depth === 0) { const m = cur; } } if (depth === 0 && ch === "\n") { if (cur.trim()) pats.push(cur.trim()); cur = ""; } }
if (cur.trim()) pats.push(cur.trim());
for (const p of pats) { const t0 = performance.now(); try { new Query(l.parser.language, p); } catch (e) { console.log("ERR", e.message.slice(0,80)); } console.log((performance.now() - t0).toFixed(1).padStart(6), p.replace(/\s+/g, " ").slice(0, 110)); }
