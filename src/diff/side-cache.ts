// The loaded side of a revision, kept beside its snapshot: a snapshot does not change while its
// slot holds the tree, so the specs and code references loaded from it are the same on every
// run with the same paths and options and the same speky-ts code. A rerun reads them back
// (one JSON file) instead of loading the specs and walking the snapshot again: the base side of
// a warm diff then costs next to nothing beside the working tree's.
//
// The file is in the slot's private folder (slots.ts: the cache folder must be ours alone), is
// checked for its shape before use, and any doubt (a different key, a field of the wrong type,
// a parse error) loads the side afresh.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "../diagnostics.js";
import type { SpecSet } from "../loader/types.js";
import type { ModelResult } from "../model/load-model.js";
import { buildModel } from "../model/model.js";
import type { ScanResult } from "../scan/types.js";
import { VERSION } from "../version.js";

const FILE = "side.json";
const FORMAT = 2;
/** A larger side is not kept (a project of a few hundred thousand items): it is loaded each time. */
const MAX_BYTES = 64 * 1024 * 1024;

interface Kept {
  format: number;
  key: string;
  specs: SpecSet | null;
  diagnostics: Diagnostic[];
  scan: ScanResult | null;
}

let fingerprint: string | undefined;

/** The built code that loads and scans (its files' sizes and times): a new build makes a new key. */
function codeFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const grammars = path.resolve(dist, "../grammars");
  const hash = createHash("sha256").update(`speky-ts ${VERSION}\0`);
  for (const dir of ["loader", "loader/yaml", "loader/toml", "scan", "model", "fs"].map((d) => path.join(dist, d)).concat(grammars)) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      try {
        const stat = statSync(path.join(dir, name));
        if (stat.isFile()) hash.update(`${dir}/${name}\0${stat.size}\0${stat.mtimeMs}\0`);
      } catch {
        // gone meanwhile: not part of the key
      }
    }
  }
  fingerprint = hash.digest("hex");
  return fingerprint;
}

/** The key of a side: its tree, what it was loaded with, and the code that loaded it. */
export function sideKey(tree: string, request: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify({ tree, request, code: codeFingerprint() }))
    .digest("hex");
}

const isArray = Array.isArray;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !isArray(v);

/** The shape the comparison relies on, checked (the values inside are data, compared as such). */
function wellFormed(kept: unknown, key: string): kept is Kept {
  if (!isObject(kept) || kept.format !== FORMAT || kept.key !== key || !isArray(kept.diagnostics)) return false;
  const { specs, scan } = kept;
  if (specs !== null) {
    if (!isObject(specs)) return false;
    for (const list of ["requirements", "tests", "comments", "manifests", "files", "warnings"]) if (!isArray(specs[list])) return false;
  }
  if (scan !== null) {
    if (!isObject(scan) || !isArray(scan.references) || !isArray(scan.diagnostics) || !isObject(scan.stats)) return false;
    for (const r of scan.references as unknown[]) {
      if (!isObject(r) || typeof r.id !== "string" || typeof r.file !== "string" || typeof r.project !== "string") return false;
      if (typeof r.line !== "number" || typeof r.tag_line !== "number" || typeof r.is_test !== "boolean") return false;
      if (r.outline !== undefined && !wellFormedOutline(r.outline)) return false;
    }
  }
  return (specs === null) === (scan === null);
}

/** A free tag's outline: its file's lines and the spans a free tag's definition is found among. */
function wellFormedOutline(outline: unknown): boolean {
  if (!isObject(outline) || typeof outline.lines !== "number" || !isArray(outline.spans)) return false;
  return (outline.spans as unknown[]).every((s) => isArray(s) && s.length === 2 && typeof s[0] === "number" && typeof s[1] === "number");
}

// speky:speky-ts#DIFF-SNAPSHOT
/** The side kept in `slotDir` under `key`, or null. */
export function readSide(slotDir: string, key: string): ModelResult | null {
  let kept: unknown;
  try {
    kept = JSON.parse(readFileSync(path.join(slotDir, FILE), "utf8"));
  } catch {
    return null;
  }
  if (!wellFormed(kept, key)) return null;
  return { model: kept.specs && kept.scan ? buildModel(kept.specs, kept.scan) : null, diagnostics: kept.diagnostics };
}

/**
 * Keeps a loaded side: its code references without the file outlines, which only navigation
 * needs, but for free tags, whose impact is their enclosing definition's (impact.ts).
 */
export function writeSide(slotDir: string, key: string, result: ModelResult): void {
  const model = result.model;
  const kept: Kept = {
    format: FORMAT,
    key,
    specs: model ? model.specs : null,
    diagnostics: result.diagnostics,
    scan: model
      ? {
          references: model.codeReferences.map(({ outline, ...ref }) => (ref.symbol === null && outline ? { ...ref, outline } : ref)),
          diagnostics: [...model.scanDiagnostics],
          stats: model.scanStats ?? { files: 0, files_with_tags: 0, tags: 0, ms: 0 },
        }
      : null,
  };
  const text = JSON.stringify(kept);
  if (text.length > MAX_BYTES) return;
  const file = path.join(slotDir, FILE);
  const temp = `${file}.${process.pid}`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}
