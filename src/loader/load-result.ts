// The end of a load: the checks that need everything loaded, the errors in order of cause, and
// the result: frozen specs with the stamps of the files read, or what loaded despite the errors.
import { compareDiagnostics, type Diagnostic, hasErrors } from "../diagnostics.js";
import { causeFirst, type FailedFile, orphanedIds } from "./cause.js";
import type { Collected } from "./collect.js";
import type { FileDiagnostics } from "./file-diagnostics.js";
import type { Written } from "./manifest.js";
import type { Provenance } from "./provenance.js";
import type { LoadResult, Manifest, PartialLoad, ReadStamp, Requirement, SpecSet, Test } from "./types.js";
import { checkCoverageCategories, validateReferences } from "./validate.js";

/**
 * The stamp of each file a load read (fstat of the open file), in the order of its `files`:
 * beside the specs, not in them (they are plain data, serialized and compared). A watcher set
 * up after the load compares them (src/live).
 */
const readStamps = new WeakMap<SpecSet, readonly ReadStamp[]>();

export function readStampsOf(specs: SpecSet): readonly ReadStamp[] | undefined {
  return readStamps.get(specs);
}

/** What the loader gathered from the files (load.ts, where each is described). */
export interface Loaded {
  readonly diagnostics: Diagnostic[];
  readonly out: Collected;
  readonly manifests: Manifest[];
  readonly files: string[];
  readonly fileStamps: ReadStamp[];
  readonly coverage: { manifest: Manifest; categories: Written[]; report: FileDiagnostics }[];
  readonly links: Promise<void>[];
  readonly failed: FailedFile[];
  readonly provenance: Provenance;
}

/** The result of a load, once its files are all read. */
export async function loadResult(loaded: Loaded): Promise<LoadResult> {
  await Promise.all(loaded.links);
  // The set of every loaded ID only when a file failed (what it would have defined is looked up).
  const orphaned =
    loaded.failed.length === 0 ? new Map<string, FailedFile>() : orphanedIds(loaded.failed, new Set(loaded.out.items.map((i) => i.id)));
  const followers = validateReferences(loaded.out, loaded.diagnostics, orphaned, {
    itemPath: (i) => loaded.provenance.pathAt(i, "items"),
    referencePath: (i) => loaded.provenance.pathAt(i, "references"),
    cite: (display, absPath) => loaded.provenance.cite(display, absPath),
  });
  for (const { manifest, categories, report } of loaded.coverage) {
    checkCoverageCategories(manifest.name, categories, report, loaded.out.items);
  }
  // One mistake can be met several times (e.g. a `default` field inherited by many comments).
  const { leading, rest } = causeFirst(
    loaded.diagnostics.sort(compareDiagnostics).filter((d, i, all) => i === 0 || compareDiagnostics(d, all[i - 1]) !== 0),
    followers,
    (f) => loaded.provenance.cite(f.file, f.path),
  );
  const diagnostics = [...leading, ...rest];
  if (hasErrors(diagnostics)) {
    return { specs: null, diagnostics, partial: partial(loaded, diagnostics, orphaned, leading.length) };
  }
  const specs = deepFreeze(specSet(loaded, loaded.manifests, diagnostics));
  readStamps.set(specs, loaded.fileStamps);
  return { specs, diagnostics: [...diagnostics] };
}

function specSet(loaded: Loaded, manifests: Manifest[], warnings: Diagnostic[]): SpecSet {
  return {
    requirements: loaded.out.items.filter((i): i is Requirement => i.kind === "requirement"),
    tests: loaded.out.items.filter((i): i is Test => i.kind === "test"),
    comments: loaded.out.comments,
    manifests,
    files: loaded.files,
    warnings,
  };
}

/** What loaded despite the errors: enough to check code tags all the same. */
function partial(loaded: Loaded, diagnostics: Diagnostic[], orphaned: ReadonlyMap<string, FailedFile>, leading: number): PartialLoad {
  const manifests = loaded.provenance.manifestsByOutcome(loaded.failed);
  const warnings = diagnostics.filter((d) => d.severity === "warning");
  return {
    specs: deepFreeze(specSet(loaded, manifests.ok, warnings)),
    orphaned: new Set(orphaned.keys()),
    failedManifests: manifests.failed,
    unread: [...loaded.provenance.unread],
    leading,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  // Index loops: an iterator per array was ~30 MB of garbage on 250,000 items.
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  else for (const key in value) deepFreeze(value[key]);
  return value;
}
