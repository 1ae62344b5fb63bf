// Run by `npm run build` after tsc: writes the scan cache's key (cache-key.ts) beside the built
// scanner, so that no run from this build hashes the grammars and the scanner's code again (an
// installed package, whose mtimes npm sets, takes the key from its first cache: cache-key.ts).
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { computeCacheKey, keyFingerprint } from "./cache-key.js";

// The fingerprint (sizes and mtimes of the files the key covers) keeps a later edit or a bare
// `tsc` from leaving a stale key in use: then the key is computed as without this file.
const file = fileURLToPath(new URL("./build-key.json", import.meta.url));
writeFileSync(file, `${JSON.stringify({ key: computeCacheKey(), fingerprint: keyFingerprint() })}\n`);
