// A large, deterministic project for the MCP latency bench: N requirements, M tests and
// their code tags in Python and Go files, written into `dir` as speky files.
// (Used only while the loader's own generator is not there.)
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface LargeSpecSize {
  requirements: number;
  tests: number;
  /** Code tags to write; half name requirements, half tests (those tagging test functions). */
  codeReferences: number;
}

export interface LargeSpec {
  manifest: string;
  requirementIds: string[];
  testIds: string[];
  tags: string[];
  categories: string[];
}

const PER_FILE = 1000;
const TAGS_PER_SOURCE = 100;
const pad = (n: number) => String(n).padStart(5, "0");
const yamlString = (s: string) => JSON.stringify(s);

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function writeLargeSpec(dir: string, size: LargeSpecSize): LargeSpec {
  const categories = ["functional", "non-functional", "security", "performance"];
  const tags = Array.from({ length: 50 }, (_, i) => (i % 5 === 0 ? `area:${i}` : `tag${i}`));
  const requirementIds = Array.from({ length: size.requirements }, (_, i) => `REQ-${pad(i)}`);
  const testIds = Array.from({ length: size.tests }, (_, i) => `TST-${pad(i)}`);
  mkdirSync(path.join(dir, "specs"), { recursive: true });
  mkdirSync(path.join(dir, "src"), { recursive: true });

  chunks(requirementIds, PER_FILE).forEach((ids, f) => {
    const lines = [`kind: requirements`, `category: ${categories[f % categories.length]}`, `requirements:`];
    for (const id of ids) {
      const n = Number(id.slice(4));
      lines.push(`  - id: ${id}`, `    short: ${yamlString(`Requirement number ${n}`)}`);
      lines.push(`    long: ${yamlString(`The system shall do thing ${n} in a reasonable way, every time it is asked.`)}`);
      lines.push(`    tags: [${tags[n % tags.length]}, ${tags[(n * 7) % tags.length]}]`);
      if (n > 0 && n % 3 === 0) lines.push(`    ref: [${requirementIds[n - 1]}]`);
    }
    writeFileSync(path.join(dir, "specs", `requirements-${f}.yaml`), lines.join("\n") + "\n");
  });

  chunks(testIds, PER_FILE).forEach((ids, f) => {
    const lines = [`kind: tests`, `category: ${f % 2 === 0 ? "functional" : "integration"}`, `tests:`];
    for (const id of ids) {
      const n = Number(id.slice(4));
      const refs = [requirementIds[n % size.requirements], requirementIds[(n * 13 + 5) % size.requirements]];
      lines.push(`  - id: ${id}`, `    short: ${yamlString(`Test number ${n}`)}`);
      lines.push(`    long: ${yamlString(`Checks requirement behaviour ${n}.`)}`);
      lines.push(`    ref: [${[...new Set(refs)].join(", ")}]`);
      lines.push(`    steps:`, `      - action: Do step ${n}`, `        run: make check-${n}`, `        expected: ok`);
    }
    writeFileSync(path.join(dir, "specs", `tests-${f}.yaml`), lines.join("\n") + "\n");
  });

  // Half the tags name requirements above plain functions, half name tests above test
  // functions; only every other test gets one, so that coverage buckets are mixed.
  const half = Math.floor(size.codeReferences / 2);
  const tagged: { id: string; test: boolean }[] = [];
  for (let i = 0; i < half; i++) tagged.push({ id: requirementIds[i % size.requirements], test: false });
  for (let i = 0; i < size.codeReferences - half; i++) {
    tagged.push({ id: testIds[(i * 2) % size.tests], test: true });
  }
  chunks(tagged, TAGS_PER_SOURCE).forEach((group, f) => {
    const python = f % 2 === 0;
    const lines: string[] = python ? [] : [`package bench`, ``, `import "testing"`, ``];
    group.forEach(({ id, test }, k) => {
      if (python) {
        lines.push(`# speky:bench#${id}`, `def ${test ? "test_" : ""}case_${f}_${k}():`, `    return ${k}`, ``);
      } else if (test) {
        lines.push(`// speky:bench#${id}`, `func TestCase${f}x${k}(t *testing.T) {}`, ``);
      } else {
        lines.push(`// speky:bench#${id}`, `func Case${f}x${k}() int { return ${k} }`, ``);
      }
    });
    const file = python ? `test_mod_${f}.py` : `mod_${f}_test.go`;
    writeFileSync(path.join(dir, "src", file), lines.join("\n"));
  });

  const manifest = path.join(dir, "speky.yaml");
  writeFileSync(
    manifest,
    [
      "kind: project",
      "name: bench",
      "files: [specs/*.yaml]",
      "code_sources: [src/**/*.py, src/**/*.go]",
      "coverage_categories: [functional, security]",
      "",
    ].join("\n"),
  );
  return { manifest, requirementIds, testIds, tags, categories };
}
