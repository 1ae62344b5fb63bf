// Each test runner of the contract that this machine has runs on the fixture tests of
// fixtures/results/<runner>/ (tagged, passing, failing, erroring, skipped, parametrized), and
// writes the JUnit XML committed beside them: what the runner writes now is compared with the
// committed file, normalised (times, timestamps, hostnames, temporary paths, addresses).
// A runner that is not installed is skipped, saying so. SPEKY_UPDATE_FIXTURES=1 rewrites the
// committed XML from the runners' output.
import { execSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readJUnitFile } from "../../src/results/junit-reader.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = path.join(repo, "fixtures/results");
const npm = path.join(fixtures, "runners-npm/node_modules");
const update = process.env.SPEKY_UPDATE_FIXTURES === "1";

interface Runner {
  runner: string;
  dir: string;
  needs: string[];
  version: string;
  command: string;
  output: string;
}

const { runners } = JSON.parse(readFileSync(path.join(fixtures, "runners.json"), "utf8")) as { runners: Runner[] };
const fill = (s: string) => s.replaceAll("{npm}", npm).replaceAll("{repo}", repo);

const work = mkdtempSync(path.join(os.tmpdir(), "speky-results-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runners write home and cache folders: all of them go under the temporary folder. */
function environment(): NodeJS.ProcessEnv {
  const home = path.join(work, "home");
  mkdirSync(home, { recursive: true });
  return {
    ...process.env,
    HOME: home,
    XDG_CACHE_HOME: path.join(home, ".cache"),
    GOCACHE: path.join(home, "go-build"),
    GOPATH: path.join(home, "go"),
    GOFLAGS: "-mod=mod",
    GOTOOLCHAIN: "local",
    CI: "true",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
  };
}

function installed(runner: Runner): string | null {
  for (const need of runner.needs) {
    const r = spawnSync("sh", ["-c", fill(need)], { stdio: "ignore", env: environment() });
    if (r.status !== 0) return need;
  }
  return null;
}

const TMP = /(?:\/private)?\/[^\s"'<>]*?\/speky-results-[^/\s"'<>]+\//g;

/** What a report says, without what differs from run to run. */
async function essentials(file: string): Promise<string[]> {
  const read = await readJUnitFile(file, "results.xml", 0, 1_000_000);
  expect(read.error).toBeNull();
  const norm = (s: string | undefined) =>
    (s ?? "")
      .replace(TMP, "<tmp>/")
      .replace(/0x[0-9a-f]+/g, "0x?")
      .replace(/\d+(?:\.\d+)?\s?m?s\b/g, "<time>");
  return read.testcases
    .map((t) => {
      const first = (t.failure ?? "").split("\n").find((l) => l.trim() !== "") ?? "";
      return [t.outcome, norm(t.classname), norm(t.name), norm(t.file), t.line ?? "", norm(t.suiteFile), norm(first.trim())].join(" | ");
    })
    .sort();
}

// speky:speky-ts#TEST-RESULTS-RUNNER-XML
describe.each(runners.map((r) => [r.runner, r] as const))("%s", (_name, runner) => {
  const missing = installed(runner);
  it.skipIf(missing !== null)(`writes the committed XML (${runner.version}${missing ? `; not installed: ${missing}` : ""})`, async () => {
    const dir = path.join(work, runner.dir);
    cpSync(path.join(fixtures, runner.dir), dir, { recursive: true, filter: (src) => !src.endsWith(runner.output) });
    const run = spawnSync("sh", ["-c", fill(runner.command)], { cwd: dir, env: environment(), encoding: "utf8", timeout: 300_000 });
    const produced = path.join(dir, runner.output);
    expect(existsSync(produced), `${runner.command}\n${run.stdout}\n${run.stderr}`).toBe(true);
    const committed = path.join(fixtures, runner.dir, runner.output);
    if (update) {
      mkdirSync(path.dirname(committed), { recursive: true });
      writeFileSync(committed, readFileSync(produced));
    }
    // The fixtures hold every outcome: a runner that wrote fewer lost some.
    const now = await essentials(produced);
    expect(now.some((l) => l.startsWith("passed"))).toBe(true);
    expect(now.some((l) => l.startsWith("failed") || l.startsWith("error"))).toBe(true);
    expect(now).toEqual(await essentials(committed));
  });
});

describe("the runners' versions", () => {
  it("are the ones recorded where they can be asked", () => {
    const ask = (cmd: string) => {
      try {
        return execSync(cmd, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: environment() });
      } catch {
        return null;
      }
    };
    const pytest = ask("/usr/bin/python3 -m pytest --version 2>&1");
    if (pytest !== null) expect(runners.find((r) => r.dir === "pytest")!.version).toContain(pytest.trim());
    const phpunit = ask("phpunit --version");
    if (phpunit !== null) expect(runners.find((r) => r.dir === "phpunit")!.version).toContain(phpunit.match(/PHPUnit [\d.]+/)![0]);
    const jest = existsSync(path.join(npm, "jest/package.json"))
      ? (JSON.parse(readFileSync(path.join(npm, "jest/package.json"), "utf8")) as { version: string }).version
      : null;
    if (jest !== null) expect(runners.find((r) => r.dir === "jest")!.version).toContain(`jest ${jest}`);
  });
});
