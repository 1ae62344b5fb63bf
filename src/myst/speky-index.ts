// The cross-references speky's Specification builds while loading (testers_of, references,
// tags, comments, code_refs_by_id, each manifest's coverage), rebuilt from our model with
// speky's semantics: lists in load order, repeats kept (a tag written twice lists its
// requirement twice), references in the form speky's scanner gives them.

import fs from "node:fs";
import path from "node:path";
import { toPosix } from "../fs/paths.js";
import type { Comment, Item, Manifest, Requirement, SourceLinks, Test } from "../loader/types.js";
import type { Model } from "../model/model.js";
import { compareCodePoints } from "./python-text.js";
import { type SpekyReference, spekyReference } from "./speky-view.js";

/** The four buckets of a category, in speky's order: automated, partial, manual, no plan. */
export type Buckets = [Requirement[], Requirement[], Requirement[], Requirement[]];

export interface SpekyIndex {
  byId: ReadonlyMap<string, Item>;
  requirementsByCategory: Map<string, Requirement[]>;
  testsByCategory: Map<string, Test[]>;
  testersOf: Map<string, Test[]>;
  references: Map<string, Requirement[]>;
  tags: Map<string, Requirement[]>;
  comments: Map<string, Comment[]>;
  codeRefs: Map<string, SpekyReference[]>;
  manifests: readonly Manifest[];
  manifestByName: ReadonlyMap<string, Manifest>;
  /** Per manifest with coverage_categories: category → buckets, in the order it lists them. */
  coverage: Map<Manifest, Map<string, Buckets>>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** speky's `sorted(items)`: by ID, stable. */
export const byId = <T extends { id: string }>(items: readonly T[]): T[] => [...items].sort((a, b) => compareCodePoints(a.id, b.id));

export function spekyIndex(model: Model): SpekyIndex {
  const { specs } = model;
  const index: SpekyIndex = {
    byId: model.byId,
    requirementsByCategory: new Map(),
    testsByCategory: new Map(),
    testersOf: new Map(),
    references: new Map(),
    tags: new Map(),
    comments: new Map(),
    codeRefs: new Map(),
    manifests: model.manifests,
    manifestByName: new Map(model.manifests.map((m) => [m.name, m])),
    coverage: new Map(),
  };
  for (const r of specs.requirements) {
    push(index.requirementsByCategory, r.category, r);
    for (const referred of r.ref) push(index.references, referred, r);
    for (const tag of r.tags) push(index.tags, tag, r);
  }
  for (const t of specs.tests) {
    push(index.testsByCategory, t.category, t);
    for (const tested of t.ref) push(index.testersOf, tested, t);
  }
  for (const c of specs.comments) push(index.comments, c.about, c);
  const roots = new Map(model.manifests.map((m) => [m.name.toLowerCase(), m.root]));
  for (const ref of model.codeReferences) {
    if (!model.byId.has(ref.id)) continue;
    push(index.codeRefs, ref.id, spekyReference(ref, roots.get(ref.project.toLowerCase()) ?? "/"));
  }
  for (const manifest of model.manifests) {
    if (manifest.coverage_categories.length === 0) continue;
    const categories = new Map<string, Buckets>();
    for (const category of manifest.coverage_categories) {
      const own = (index.requirementsByCategory.get(category) ?? []).filter((r) => r.project === manifest.name);
      categories.set(category, buckets(index, byId(own)));
    }
    index.coverage.set(manifest, categories);
  }
  return index;
}

function isAutomated(index: SpekyIndex, testId: string): boolean {
  return index.codeRefs.get(testId)?.some((r) => r.is_test) ?? false;
}

function buckets(index: SpekyIndex, requirements: Requirement[]): Buckets {
  const result: Buckets = [[], [], [], []];
  for (const r of requirements) {
    const tests = index.testersOf.get(r.id);
    if (!tests) {
      result[3].push(r);
      continue;
    }
    const automated = tests.filter((t) => isAutomated(index, t.id)).length;
    result[automated === tests.length ? 0 : automated === 0 ? 2 : 1].push(r);
  }
  return result;
}

/** speky's SourceLinkConfig.url_for: a link to a file under the git root, else null. */
export function urlFor(links: SourceLinks | undefined, file: string): string | null {
  if (!links) return null;
  let real = file;
  try {
    real = fs.realpathSync(file);
  } catch {
    // speky's Path.resolve() keeps a path that does not exist as it is.
  }
  const relative = path.relative(links.gitRoot, real);
  if (relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return null;
  return `${links.url}/blob/${links.branch}/${relative === "" ? "." : toPosix(relative)}`;
}
