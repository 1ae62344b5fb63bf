// The plugin's skills (skills/<name>/SKILL.md): each mirrors the MCP prompt of the same name
// (same description, read from a running server), and every example in it runs. A fenced block
// whose info string is a language and a path (```yaml speky.yaml) is a file the skill writes; a
// ```sh block holds commands. Each skill runs on a copy of its fixture (fixtures/plugin), its
// blocks in order, with `speky` on PATH as the built binary; every command must exit 0.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { connect, type Session } from "../support/mcp.js";
import { REPO, SPEKY_BIN, tempDir } from "../support/process.js";

const SKILLS_DIR = path.join(REPO, "skills");
const SKILLS = readdirSync(SKILLS_DIR).sort();

interface Block {
  lang: string;
  file: string | null;
  body: string;
}

interface Skill {
  name: string;
  description: string;
  body: string;
  blocks: Block[];
}

function readSkill(name: string): Skill {
  const text = readFileSync(path.join(SKILLS_DIR, name, "SKILL.md"), "utf8");
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`${name}/SKILL.md has no frontmatter`);
  const front = parse(match[1]) as { name: string; description: string };
  const blocks: Block[] = [];
  for (const m of match[2].matchAll(/^```(\S+)(?: (\S+))?\n([\s\S]*?)^```$/gm)) {
    blocks.push({ lang: m[1], file: m[2] ?? null, body: m[3] });
  }
  return { name: front.name, description: front.description, body: match[2], blocks };
}

/** The fixture each skill starts from, and what is done to it first (as the user would have). */
const SETUP: Record<string, { fixture: string; prepare?: (dir: string) => void }> = {
  "start-specification": { fixture: "untraced" },
  "write-test-plans": { fixture: "shop" },
  "trace-to-ids": { fixture: "shop" },
  "review-change": {
    fixture: "shop",
    // A branch main holding the fixture, then a change in the working tree: REQ-2's text changes, REQ-3 loses its tag.
    prepare: (dir) => {
      const git = (...args: string[]) => run("git", args, dir);
      git("init", "-q", "-b", "main");
      git("add", ".");
      git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "shop");
      const reqs = path.join(dir, "specs/requirements.yaml");
      writeFileSync(reqs, readFileSync(reqs, "utf8").replace("quantity times price.", "quantity times price, less any discount."));
      const cart = path.join(dir, "src/cart.py");
      writeFileSync(cart, readFileSync(cart, "utf8").replace("    # speky:shop#REQ-3\n", ""));
    },
  },
};

/** A folder holding `speky`: the built binary on this Node, as an installed speky-ts provides it. */
function spekyOnPath(): string {
  const bin = tempDir("speky-skill-bin-");
  writeFileSync(path.join(bin, "speky"), `#!/bin/sh\nexec "${process.execPath}" "${SPEKY_BIN}" "$@"\n`, { mode: 0o755 });
  return bin;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const ran = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 120_000 });
  if (ran.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${ran.status} in ${cwd}:\n${ran.stdout}\n${ran.stderr}`);
  return ran;
}

/** Runs a skill's blocks in order in a copy of its fixture; the folder and each command's output. */
function runExamples(skill: Skill, bin: string): { dir: string; outputs: Map<string, string> } {
  const dir = tempDir(`speky-skill-${skill.name}-`);
  cpSync(path.join(REPO, "fixtures/plugin", SETUP[skill.name].fixture), dir, { recursive: true });
  SETUP[skill.name].prepare?.(dir);
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, GIT_CONFIG_NOSYSTEM: "1" };
  const outputs = new Map<string, string>();
  for (const block of skill.blocks) {
    if (block.file !== null) {
      mkdirSync(path.dirname(path.join(dir, block.file)), { recursive: true });
      writeFileSync(path.join(dir, block.file), block.body);
    } else if (block.lang === "sh") {
      for (const line of block.body.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#"))) {
        outputs.set(line, run("bash", ["-euo", "pipefail", "-c", line], dir, env).stdout);
      }
    }
  }
  return { dir, outputs };
}

let session: Session;
let bin: string;
beforeAll(async () => {
  session = await connect(["fixtures/plugin/shop/speky.yaml", "--no-watch"]);
  bin = spekyOnPath();
});
afterAll(async () => {
  await session?.close();
});

// speky:speky-ts#TPLUGIN-SKILLS
describe("the plugin's skills", () => {
  it("are the four workflows, each the mirror of the MCP prompt of its name", async () => {
    expect(SKILLS).toEqual(["review-change", "start-specification", "trace-to-ids", "write-test-plans"]);
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(SKILLS);
    for (const name of SKILLS) {
      const skill = readSkill(name);
      expect(skill.name).toBe(name);
      expect(skill.description, name).toBe(prompts.find((p) => p.name === name)!.description);
      expect(skill.blocks.filter((b) => b.lang === "sh").length, `${name}: examples that run`).toBeGreaterThan(0);
      // Every tool a skill names is one the server has.
      const { tools } = await session.client.listTools();
      const known = new Set(tools.map((t) => t.name));
      for (const [, tool] of skill.body.matchAll(/`([a-z]+(?:_[a-z]+)+)(?: [^`]*)?`/g)) {
        if (/^(get|list|search|find|test|least|changes)_/.test(tool)) expect(known.has(tool), `${name} names ${tool}`).toBe(true);
      }
    }
  });

  it("start-specification: the manifest, requirements and tags it writes pass the check", () => {
    const { dir, outputs } = runExamples(readSkill("start-specification"), bin);
    expect(outputs.get("speky check speky.yaml")).toBe("0 errors, 0 warnings in 4 files\n");
    const refs = JSON.parse(readFileSync(path.join(dir, "refs.json"), "utf8")).references as { id: string; symbol: string }[];
    expect(refs.map((r) => `${r.id} ${r.symbol}`)).toEqual(["REQ-1 Cart.add", "REQ-2 Cart.total"]);
  });

  it("write-test-plans: the new plan is automated, and no requirement is left without one", () => {
    const { outputs } = runExamples(readSkill("write-test-plans"), bin);
    const reports = [...outputs.entries()].filter(([line]) => line.startsWith("speky report")).map(([, out]) => out);
    // The same command before and after: the last run is kept, with REQ-3 now automated.
    expect(reports.at(-1)).toContain("| functional | 0 | 1 | 0 | 2 | 3 | 67% |");
    expect(outputs.get("speky check speky.yaml")).toBe("0 errors, 0 warnings in 7 files\n");
  });

  it("trace-to-ids: scan and check resolve every tag of the fixture", () => {
    const { dir, outputs } = runExamples(readSkill("trace-to-ids"), bin);
    const refs = JSON.parse(readFileSync(path.join(dir, "refs.json"), "utf8")).references as { id: string; is_test: boolean }[];
    expect(refs.map((r) => `${r.id}${r.is_test ? " test" : ""}`)).toEqual(["REQ-1", "REQ-3", "REQ-2", "TST-1 test"]);
    expect(JSON.parse(outputs.get("speky scan --project shop src tests")!).references).toHaveLength(4);
  });

  it("review-change: speky diff tells the suspect requirement and the removed tag", () => {
    const { outputs } = runExamples(readSkill("review-change"), bin);
    const json = JSON.parse(outputs.get("speky diff main --format json")!);
    expect(json.requirements.changed).toEqual([{ id: "REQ-2", project: expect.any(String), fields: ["long"] }]);
    expect(json.suspect.map((s: { id: string }) => s.id)).toEqual(["REQ-2"]);
    expect(json.code_references.removed.map((r: { id: string }) => r.id)).toEqual(["REQ-3"]);
    expect(outputs.get("speky diff main --format markdown")).toContain("### Suspect (1)");
  });

  it("leave the fixtures as they are (examples run in copies)", () => {
    expect(existsSync(path.join(REPO, "fixtures/plugin/untraced/speky.yaml"))).toBe(false);
    expect(existsSync(path.join(REPO, "fixtures/plugin/shop/refs.json"))).toBe(false);
  });
});
