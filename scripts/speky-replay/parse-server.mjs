// Parses source files for the tree_sitter stand-in (py/tree_sitter): one request per line on
// stdin, `<language>\t<base64 source>`, one JSON tree per line on stdout. The grammars are
// the ones speky-ts itself loads (grammars/languages.json, grammars/wasm/), through the built
// dist/scan/grammar/runtime.js. Offsets are converted to UTF-8 bytes, as py-tree-sitter gives them (a
// source that is not UTF-8 would shift them: speky's trees are UTF-8).
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { languageRow } = await import(pathToFileURL(path.join(REPO, "dist/scan/grammar/languages.js")).href);
const { initRuntime, loadGrammar } = await import(pathToFileURL(path.join(REPO, "dist/scan/grammar/runtime.js")).href);
const { Parser } = await import("web-tree-sitter");

await initRuntime();
const loaded = new Map();
async function language(name) {
  if (!loaded.has(name)) loaded.set(name, await loadGrammar(languageRow(name)));
  return loaded.get(name);
}

/** UTF-8 byte offset of each UTF-16 index of `text`. */
function byteOffsets(text) {
  const offsets = new Uint32Array(text.length + 1);
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    offsets[i] = bytes;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00) {
      offsets[i + 1] = bytes; // the low surrogate: inside the same 4-byte character
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  offsets[text.length] = bytes;
  return offsets;
}

function dump(node, offsets) {
  // [type, is_named, start_row, start_byte, end_byte, children]
  const children = [];
  for (let i = 0; i < node.childCount; i++) children.push(dump(node.child(i), offsets));
  return [node.type, node.isNamed, node.startPosition.row, offsets[node.startIndex], offsets[node.endIndex], children];
}

const parser = new Parser();
for await (const line of createInterface({ input: process.stdin })) {
  const [name, base64] = line.split("\t");
  const text = Buffer.from(base64, "base64").toString("utf8");
  parser.setLanguage(await language(name));
  const tree = parser.parse(text);
  process.stdout.write(`${JSON.stringify(dump(tree.rootNode, byteOffsets(text)))}\n`);
  tree.delete();
}
