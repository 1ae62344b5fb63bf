// The one structure everything reads: the loaded specs with their cross-references, and
// the scanner's code references merged by ID. Built once, frozen, swapped whole on reload.
import { compareStrings, type Diagnostic } from "../diagnostics.js";
import type { Comment, Item, Manifest, Requirement, SpecSet, Test } from "../loader/types.js";
import type { CodeReference, ScanResult } from "../scan/types.js";
import type { Verification } from "./verification-types.js";

export interface Model {
  readonly specs: SpecSet;
  readonly byId: ReadonlyMap<string, Item>;
  /** Requirement IDs and test IDs, each sorted. */
  readonly requirementIds: readonly string[];
  readonly testIds: readonly string[];
  /** Category → items, in load order. */
  readonly requirementsByCategory: ReadonlyMap<string, readonly Requirement[]>;
  readonly testsByCategory: ReadonlyMap<string, readonly Test[]>;
  /** ID → requirements whose `ref` names it, sorted by ID. */
  readonly referencedBy: ReadonlyMap<string, readonly Requirement[]>;
  /** ID → tests whose `ref` names it, sorted by ID. */
  readonly testedBy: ReadonlyMap<string, readonly Test[]>;
  /** ID → comments about it, in load order. */
  readonly commentsAbout: ReadonlyMap<string, readonly Comment[]>;
  /** Tag → requirements carrying it, in load order. */
  readonly tags: ReadonlyMap<string, readonly Requirement[]>;
  /** Every code reference, sorted by file, line, id. */
  readonly codeReferences: readonly CodeReference[];
  /** ID → its code references, sorted by file, line. */
  readonly codeReferencesById: ReadonlyMap<string, readonly CodeReference[]>;
  /** Code references whose ID no loaded item defines. */
  readonly danglingReferences: readonly CodeReference[];
  /** Scanner diagnostics, sorted. */
  readonly scanDiagnostics: readonly Diagnostic[];
  readonly manifests: readonly Manifest[];
  readonly scanStats: ScanResult["stats"] | null;
  /** Test results joined to the tagged tests (src/model/verification.ts); absent when no results are given. */
  readonly verification?: Verification;
}

function groupInto<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const byItemId = (a: { id: string }, b: { id: string }) => compareStrings(a.id, b.id);

export function compareCodeReferences(a: CodeReference, b: CodeReference): number {
  return compareStrings(a.file, b.file) || a.line - b.line || a.column - b.column || compareStrings(a.id, b.id);
}

function sortValues<K, V>(map: Map<K, V[]>, compare: (a: V, b: V) => number): Map<K, V[]> {
  for (const list of map.values()) list.sort(compare);
  return map;
}

/** The parts of a model that depend on the specs only. */
type SpecIndex = Pick<
  Model,
  | "byId"
  | "requirementIds"
  | "testIds"
  | "requirementsByCategory"
  | "testsByCategory"
  | "referencedBy"
  | "testedBy"
  | "commentsAbout"
  | "tags"
>;

/**
 * Built once per loaded spec set: the server serves the specs at once and again with the code
 * references when the scan is done, and a code change rescans the same specs. Rebuilding these
 * each time held two copies during the swap (~60 MB of maps and garbage on 250,000 items).
 */
const specIndexes = new WeakMap<SpecSet, SpecIndex>();

/** Each distinct value once, in order; without a Set for the usual one- or two-element lists. */
function distinct(list: readonly string[]): readonly string[] {
  if (list.length < 2) return list;
  return list.length === 2 ? (list[0] === list[1] ? [list[0]] : list) : [...new Set(list)];
}

function specIndex(specs: SpecSet): SpecIndex {
  const known = specIndexes.get(specs);
  if (known) return known;
  const byId = new Map<string, Item>();
  const requirementsByCategory = new Map<string, Requirement[]>();
  const testsByCategory = new Map<string, Test[]>();
  const referencedBy = new Map<string, Requirement[]>();
  const testedBy = new Map<string, Test[]>();
  const commentsAbout = new Map<string, Comment[]>();
  const tags = new Map<string, Requirement[]>();

  // Index loops: iterators over every item's lists were tens of MB of garbage on 250,000 items.
  for (let i = 0; i < specs.requirements.length; i++) {
    const req = specs.requirements[i];
    byId.set(req.id, req);
    groupInto(requirementsByCategory, req.category, req);
    for (let j = 0; j < req.ref.length; j++) groupInto(referencedBy, req.ref[j], req);
    const tagged = distinct(req.tags);
    for (let j = 0; j < tagged.length; j++) groupInto(tags, tagged[j], req);
  }
  for (let i = 0; i < specs.tests.length; i++) {
    const test = specs.tests[i];
    byId.set(test.id, test);
    groupInto(testsByCategory, test.category, test);
    const tested = distinct(test.ref);
    for (let j = 0; j < tested.length; j++) groupInto(testedBy, tested[j], test);
  }
  for (const comment of specs.comments) groupInto(commentsAbout, comment.about, comment);
  const index: SpecIndex = {
    byId,
    requirementIds: specs.requirements.map((r) => r.id).sort(compareStrings),
    testIds: specs.tests.map((t) => t.id).sort(compareStrings),
    requirementsByCategory,
    testsByCategory,
    referencedBy: sortValues(referencedBy, byItemId),
    testedBy: sortValues(testedBy, byItemId),
    commentsAbout,
    tags,
  };
  specIndexes.set(specs, index);
  return index;
}

// speky:speky-ts#MODEL-MERGE
export function buildModel(specs: SpecSet, scan: ScanResult | null = null): Model {
  const index = specIndex(specs);
  const codeReferences = [...(scan?.references ?? [])].sort(compareCodeReferences);
  const codeReferencesById = new Map<string, CodeReference[]>();
  const danglingReferences: CodeReference[] = [];
  for (const ref of codeReferences) {
    if (index.byId.has(ref.id)) groupInto(codeReferencesById, ref.id, ref);
    else danglingReferences.push(ref);
  }

  const model: Model = {
    specs,
    byId: index.byId,
    requirementIds: index.requirementIds,
    testIds: index.testIds,
    requirementsByCategory: index.requirementsByCategory,
    testsByCategory: index.testsByCategory,
    referencedBy: index.referencedBy,
    testedBy: index.testedBy,
    commentsAbout: index.commentsAbout,
    tags: index.tags,
    codeReferences,
    codeReferencesById,
    danglingReferences,
    scanDiagnostics: scan?.diagnostics ?? [],
    manifests: specs.manifests,
    scanStats: scan?.stats ?? null,
  };
  return Object.freeze(model);
}
