import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "../../src/cli/args.js";
import { loadCommands } from "../../src/commands/index.js";
import { plural, quote } from "../../src/quote.js";
import { connect } from "../support/mcp.js";
import { REPO, runSpeky, tempDir } from "../support/process.js";

const runMcp = (args: string[]) => {
  const r = spawnSync(process.execPath, [path.join(REPO, "bin/speky-mcp.js"), ...args], { cwd: REPO, encoding: "utf8", input: "" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("--help everywhere", () => {
  // speky:speky-ts#TINSTALL-HELP
  it("answers --help and -h for speky, every registered subcommand and speky-mcp, exit 0", { timeout: 240_000 }, async () => {
    const COMMANDS = await loadCommands();
    for (const flag of ["--help", "-h"]) {
      const top = runSpeky([flag]);
      expect(top.status).toBe(0);
      expect(top.stderr).toBe("");
      for (const command of COMMANDS) expect(top.stdout).toContain(`speky ${command.name} ${command.usage[0]}`);
      const mcp = runMcp([flag]);
      expect(mcp.status).toBe(0);
      expect(mcp.stdout).toContain("speky-mcp [PATH...] [-C CSV]...");
      expect(mcp.stdout).toContain("--no-watch");
    }
    for (const command of COMMANDS) {
      // --help wins wherever it stands, even without the positionals the command needs.
      const runs = [
        [command.name, "--help"],
        [command.name, "some.yaml", "-h"],
        ["help", command.name],
      ].map((argv) => runSpeky(argv));
      for (const run of runs) {
        expect(run.status).toBe(0);
        expect(run.stderr).toBe("");
        expect(run.stdout).toBe(runs[0].stdout);
      }
      expect(runs[0].stdout).toContain(`Usage:\n  speky ${command.name} ${command.usage[0]}\n`);
      for (const option of command.options) expect(runs[0].stdout).toContain(`--${option.name}`);
    }
  });

  it("keeps usage errors at exit 2 with one line and a pointer to --help", () => {
    const cases: [string[], string][] = [
      [["check", "x.yaml", "--bogus"], "speky: unknown option '--bogus'"],
      [["check", "x.yaml", "--strict=yes"], "speky: option '--strict' takes no value"],
      [["scan", "x.yaml", "--output"], "speky: option '--output' needs a value"],
      [[], "speky: missing command (check, scan, report, lsp, export, diff)"],
    ];
    for (const [argv, line] of cases) {
      const run = runSpeky(argv);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(`${line}\nTry 'speky --help'.\n`);
    }
  });

  it("parses the usual shapes: --name=value, grouped short flags, repeats, -- and -", () => {
    const specs = [
      { name: "format", value: "F", help: "" },
      { name: "csv", short: "C", value: "CSV", repeat: true, help: "" },
      { name: "quiet", short: "q", help: "" },
      { name: "help", short: "h", help: "" },
    ];
    const args = parseArgs(["a", "--format=json", "-C", "x.csv", "-qh", "--csv", "y.csv", "-", "--", "--quiet"], specs);
    expect(args.positionals).toEqual(["a", "-", "--quiet"]);
    expect(Object.fromEntries(args.options)).toEqual({ format: "json", csv: ["x.csv", "y.csv"], quiet: true, help: true });
    expect(() => parseArgs(["--nope"], specs)).toThrow(UsageError);
  });
});

describe("messages quote input bounded and escaped", () => {
  // speky:speky-ts#TINSTALL-QUOTE
  it("quotes at most ~100 characters, escapes control characters, counts the rest", () => {
    expect(quote("REQ-1")).toBe("'REQ-1'");
    const long = quote("X".repeat(1_000_000));
    expect(long).toBe(`'${"X".repeat(100)}…' (1,000,000 characters)`);
    expect(quote("a\nb\tc\r\u0000\u001b[31m\u202e")).toBe("'a\\nb\\tc\\r\\x00\\x1b[31m\\u202e'");
    expect(quote("\n".repeat(500))).toBe(`'${"\\n".repeat(50)}…' (500 characters)`);
    // A character outside the BMP is one character, never cut in half.
    expect(quote("😀".repeat(150))).toBe(`'${"😀".repeat(100)}…' (150 characters)`);
    // Not a command: speky's command line, whose FILE it is not.
    const unknown = runSpeky(["X".repeat(100_000)]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe(`speky: no such file '${"X".repeat(100)}…' (100,000 characters)\n`);
    const option = runSpeky(["check", "x.yaml", "--format", "a\nerror: forged"]);
    expect(option.stderr.split("\n")[0]).toBe("speky: option '--format' must be one of text, json, github, sarif, not 'a\\nerror: forged'");
  });

  it("bounds the MCP error texts that echo an argument, and keeps the contract's texts for the rest", async () => {
    const session = await connect();
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await session.client.callTool({ name, arguments: args });
        expect(result.isError).toBe(true);
        const error = (result.structuredContent as { error: string }).error;
        expect((result.content as { text: string }[])[0].text).toBe(JSON.stringify({ error }));
        return error;
      };
      const huge = "X".repeat(1_000_000);
      const bounded = `'${"X".repeat(100)}…' (1,000,000 characters)`;
      expect(await call("get_requirement", { id: huge })).toBe(`Requirement ${bounded} not found`);
      expect(await call("list_references_to", { id: huge })).toBe(`Requirement ${bounded} not found`);
      expect(await call("search_requirements", { tag: huge })).toBe(`Tag ${bounded} not found`);
      expect(await call("get_test", { id: "a\nb" })).toBe("Test 'a\\nb' not found");
      expect(await call("get_requirement", { id: "NOPE" })).toBe("Requirement NOPE not found");
      expect(await call("search_requirements", { tag: "nope" })).toBe("Tag 'nope' not found");
    } finally {
      await session.close();
    }
  });

  it("says 1 requirement, 1 file in the server's log and the check's summary", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "one.yaml"), "kind: requirements\ncategory: c\nrequirements:\n  - id: R-1\n    short: s\n    long: l\n");
    const r = spawnSync(process.execPath, [path.join(REPO, "bin/speky-mcp.js"), "one.yaml"], { cwd: dir, encoding: "utf8", input: "" });
    expect(r.stderr).toContain("loaded 1 requirement and 0 tests in ");
    expect(runSpeky(["check", "one.yaml"], dir).stdout).toBe("0 errors, 0 warnings in 1 file\n");
  });

  it("bounds the spec loader's messages that quote file content", () => {
    const dir = tempDir();
    const key = "k".repeat(300_000);
    writeFileSync(
      path.join(dir, "r.yaml"),
      `kind: requirements\ncategory: c\nrequirements:\n  - id: R-1\n    short: s\n    long: l\n    ${key}: v\n`,
    );
    writeFileSync(path.join(dir, "t.yaml"), `kind: ${"z".repeat(5000)}\n`);
    const run = runSpeky(["check", "r.yaml", "t.yaml"], dir);
    const bounded = (c: string, n: string) => `'${c.repeat(100)}…' (${n} characters)`;
    expect(run.stdout).toContain(`r.yaml:7:5: warning: requirement 'R-1': unknown field ${bounded("k", "300,000")} (ignored)\n`);
    expect(run.stdout).toContain(`t.yaml:1:7: error: unknown kind ${bounded("z", "5,000")} (expected `);
    expect(run.stdout.length).toBeLessThan(2000);
  });

  it("says 1 file, 2 files", () => {
    expect(plural(1, "file")).toBe("1 file");
    expect(plural(0, "file")).toBe("0 files");
    expect(plural(1_000_000, "requirement")).toBe("1,000,000 requirements");
    expect(plural(2, "entry", "entries")).toBe("2 entries");
  });
});

describe("output files", () => {
  // speky:speky-ts#TINSTALL-OUTPUT-ERROR
  it("reports an unwritable --output path as one line, exit 2, without a stack", () => {
    const dir = tempDir();
    const cases: [string, string][] = [
      [path.join(dir, "missing-dir/x.json"), "no such file or directory"],
      [dir, "illegal operation on a directory"],
    ];
    for (const [output, reason] of cases) {
      const run = runSpeky(["scan", "--project", "p", "--no-cache", "fixtures/check/tree", "--output", output]);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(`speky: cannot write '${output}': ${reason}\n`);
      expect(run.status).toBe(2);
    }
    const written = path.join(dir, "refs.json");
    expect(runSpeky(["scan", "--project", "p", "--no-cache", "fixtures/check/tree", "--output", written]).status).toBe(0);
    expect(existsSync(written)).toBe(true);
  });

  it.skipIf(!existsSync("/dev/full"))("reports standard output on a full disk as one line, exit 2, without a stack", () => {
    // /dev/full: every write fails with ENOSPC.
    const full = openSync("/dev/full", "w");
    try {
      for (const args of [
        ["scan", "speky.yaml"],
        ["check", "speky.yaml", "--format", "json"],
      ]) {
        const r = spawnSync(process.execPath, [path.join(REPO, "bin/speky.js"), ...args], {
          cwd: path.join(REPO, "fixtures/check/tree"),
          stdio: ["ignore", full, "pipe"],
          encoding: "utf8",
        });
        expect(r.stderr).toBe("speky: cannot write the output: no space left on device\n");
        expect(r.status).toBe(2);
      }
    } finally {
      closeSync(full);
    }
  });
});
