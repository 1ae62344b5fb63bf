// A large, valid specification tree for benchmarks: a manifest, requirements and tests split
// over files of realistic size, written in the block style people write. Deterministic.
import fs from "node:fs/promises";
import path from "node:path";

export interface LargeSpecSize {
  requirements: number;
  tests: number;
}

const REQUIREMENTS_PER_FILE = 1000;
const TESTS_PER_FILE = 2000;
const CATEGORIES = ["functional", "non-functional"];

const pad = (n: number) => String(n).padStart(5, "0");
const reqId = (n: number) => `REQ-${pad(n)}`;
const testId = (n: number) => `TST-${pad(n)}`;

/** Writes the tree into dir (created if needed); returns the manifest's path. */
export async function generateLargeSpec(dir: string, size: LargeSpecSize): Promise<string> {
  await fs.mkdir(path.join(dir, "requirements"), { recursive: true });
  await fs.mkdir(path.join(dir, "tests"), { recursive: true });
  const writes: Promise<void>[] = [];
  for (let start = 0; start < size.requirements; start += REQUIREMENTS_PER_FILE) {
    const end = Math.min(start + REQUIREMENTS_PER_FILE, size.requirements);
    const file = path.join(dir, "requirements", `part-${pad(start / REQUIREMENTS_PER_FILE)}.yaml`);
    writes.push(fs.writeFile(file, requirementsFile(start, end)));
  }
  for (let start = 0; start < size.tests; start += TESTS_PER_FILE) {
    const end = Math.min(start + TESTS_PER_FILE, size.tests);
    const file = path.join(dir, "tests", `part-${pad(start / TESTS_PER_FILE)}.yaml`);
    writes.push(fs.writeFile(file, testsFile(start, end, size.requirements)));
  }
  const manifest = path.join(dir, "speky.yaml");
  writes.push(
    fs.writeFile(
      manifest,
      [
        "kind: project",
        "name: bench",
        "files:",
        "  - requirements/*.yaml",
        "  - tests/*.yaml",
        "code_sources:",
        "  - src/**/*.ts",
        "coverage_categories:",
        ...(size.requirements > 0 ? CATEGORIES.map((c) => `  - ${c}`) : []),
        "",
      ].join("\n"),
    ),
  );
  await Promise.all(writes);
  return manifest;
}

function requirementsFile(start: number, end: number): string {
  const category = CATEGORIES[(start / REQUIREMENTS_PER_FILE) % CATEGORIES.length];
  const out = [`kind: requirements`, `category: ${category}`, `requirements:`];
  for (let n = start; n < end; n++) {
    out.push(
      `- id: ${reqId(n)}`,
      `  short: Requirement number ${n}`,
      `  long: |`,
      `    The system shall handle case ${n} within ${(n % 90) + 10} milliseconds,`,
      `    and report any failure to the operator.`,
      `  tags:`,
      `    - area:${["io", "ui", "core", "net"][n % 4]}`,
      `    - priority-${n % 3}`,
    );
    if (n % 5 === 0) out.push(`  properties:`, `    since: ${1 + (n % 7)}`, `    author: Team ${n % 11}`);
    if (n > start && n % 10 === 0) out.push(`  ref:`, `    - ${reqId(n - 1)}`);
  }
  return `${out.join("\n")}\n`;
}

function testsFile(start: number, end: number, requirements: number): string {
  const out = [`kind: tests`, `category: functional`, `tests:`];
  for (let n = start; n < end; n++) {
    out.push(
      `- id: ${testId(n)}`,
      `  short: Check case ${n}`,
      `  long: Verifies the behaviour of case ${n} end to end.`,
      `  ref:`,
      `    - ${requirements > 0 ? reqId(n % requirements) : testId(start)}`,
    );
    if (n > start && n % 4 === 0) out.push(`  prereq: [${testId(n - 1)}]`);
    out.push(
      `  steps:`,
      `    - action: Start the system with case ${n}`,
      `      run: tool run --case ${n}`,
      `    - action: Check the report`,
      `      expected: The report lists case ${n} as passed`,
    );
  }
  return `${out.join("\n")}\n`;
}
