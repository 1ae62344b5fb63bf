// `--fail-on NAME,...`: exit 1 when one of the named parts of the diff is not empty. A name is a
// section (requirements, tests, code_references, coverage, impact, suspect, rerun), a part of
// one (requirements.added, code_references.removed...), or added, removed or changed for
// those parts of every section that has them.
import type { Changes } from "./shapes.js";

const PARTS = {
  "requirements.added": (c: Changes) => c.requirements?.added.length,
  "requirements.removed": (c: Changes) => c.requirements?.removed.length,
  "requirements.changed": (c: Changes) => c.requirements?.changed.length,
  "tests.added": (c: Changes) => c.tests?.added.length,
  "tests.removed": (c: Changes) => c.tests?.removed.length,
  "tests.changed": (c: Changes) => c.tests?.changed.length,
  "code_references.added": (c: Changes) => c.code_references?.added.length,
  "code_references.removed": (c: Changes) => c.code_references?.removed.length,
  coverage: (c: Changes) => c.coverage?.length,
  impact: (c: Changes) => c.impact?.length,
  suspect: (c: Changes) => c.suspect?.length,
  rerun: (c: Changes) => c.rerun?.length,
} as const;

type Part = keyof typeof PARTS;
const parts = Object.keys(PARTS) as Part[];

/** Every name --fail-on takes, and the parts each stands for. */
export const FAIL_ON_NAMES: ReadonlyMap<string, readonly Part[]> = new Map<string, readonly Part[]>([
  ...parts.map((p) => [p, [p]] as [string, Part[]]),
  ...["requirements", "tests", "code_references"].map((s) => [s, parts.filter((p) => p.startsWith(`${s}.`))] as [string, Part[]]),
  ...["added", "removed", "changed"].map((k) => [k, parts.filter((p) => p.endsWith(`.${k}`))] as [string, Part[]]),
]);

/** The names of a --fail-on value, or the first unknown one. */
export function parseFailOn(values: readonly string[]): { names: string[] } | { unknown: string } {
  const names = values
    .flatMap((v) => v.split(","))
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  const unknown = names.find((n) => !FAIL_ON_NAMES.has(n));
  return unknown === undefined ? { names } : { unknown };
}

// speky:speky-ts#DIFF-FAIL-ON
/** The names whose parts are not empty. */
export function failing(changes: Changes, names: readonly string[]): string[] {
  return names.filter((n) => (FAIL_ON_NAMES.get(n) ?? []).some((p) => (PARTS[p](changes) ?? 0) > 0));
}
