// Code tags for the MCP latency bench, written next to the loader's generated spec
// (generateLargeSpec, whose manifest scans src/**/*.ts): half the tags name requirements
// above plain functions, half name tests above call-style tests in *.test.ts files, so that
// the tests tagged that way count as automated. Deterministic.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

const TAGS_PER_FILE = 100;
const pad = (n: number) => String(n).padStart(5, "0");

/** IDs as generateLargeSpec writes them. */
export const requirementId = (n: number) => `REQ-${pad(n)}`;
export const testId = (n: number) => `TST-${pad(n)}`;

export async function writeTaggedSources(
  dir: string,
  size: { requirements: number; tests: number; codeReferences: number },
): Promise<void> {
  const src = path.join(dir, "src");
  await mkdir(src, { recursive: true });
  const onRequirements = Math.floor(size.codeReferences / 2);
  const onTests = size.codeReferences - onRequirements;
  const writes: Promise<void>[] = [];
  for (let start = 0; start < onRequirements; start += TAGS_PER_FILE) {
    const f = start / TAGS_PER_FILE;
    const lines: string[] = [];
    for (let k = start; k < Math.min(start + TAGS_PER_FILE, onRequirements); k++) {
      lines.push(`// speky:bench#${requirementId(k % size.requirements)}`);
      lines.push(`export function handle${k}(input: number): number {`, `  return input + ${k};`, `}`, ``);
    }
    writes.push(writeFile(path.join(src, `module-${pad(f)}.ts`), lines.join("\n")));
  }
  // Only even-numbered tests get tags: the requirements they validate come out automated,
  // the others keep manual test plans only.
  for (let start = 0; start < onTests; start += TAGS_PER_FILE) {
    const f = start / TAGS_PER_FILE;
    const lines = [`import { describe, it } from "vitest";`, ``, `describe("suite ${f}", () => {`];
    for (let k = start; k < Math.min(start + TAGS_PER_FILE, onTests); k++) {
      lines.push(`  // speky:bench#${testId((k * 2) % size.tests)}`);
      lines.push(`  it("case ${k}", () => {});`, ``);
    }
    lines.push(`});`, ``);
    writes.push(writeFile(path.join(src, `module-${pad(f)}.test.ts`), lines.join("\n")));
  }
  await Promise.all(writes);
}
