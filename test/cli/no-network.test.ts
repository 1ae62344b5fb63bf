// speky-ts's commands never touch the network: none loads Node's modules for a connection over
// it (http, https, http2, tls; not net nor dgram, which stdio pipes and child_process load).
// The README's advice rests on it: on Node 20 a hook may run speky with NODE_EXTRA_CA_CERTS
// unset, since Node 20 reads those certificates at every start. Each command runs as built,
// with a preload that writes the built-in modules it loaded.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyFixture, SPEKY_BIN, tempDir } from "../support/process.js";

const scratch = tempDir("speky-no-network-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tree = copyFixture("check/tree");
afterAll(() => rmSync(tree, { recursive: true, force: true }));

const PRELOAD = path.join(scratch, "modules-loaded.cjs");
writeFileSync(
  PRELOAD,
  `process.on("exit", () => require("node:fs").writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join("\\n")));\n`,
);

const NETWORK = /^NativeModule (?:_http_\w+|https?|http2|_tls_\w+|tls|internal\/http2?\/\S+|internal\/tls\/\S+)$/;

let runs = 0;

/** The built-in modules `speky ARGS` loaded (it exits 0 or 1: 1 is a check's verdict). */
function modulesOf(args: string[]): string[] {
  const out = path.join(scratch, `modules-${++runs}.txt`);
  const r = spawnSync(process.execPath, ["--require", PRELOAD, SPEKY_BIN, ...args], {
    cwd: tree,
    encoding: "utf8",
    env: { ...process.env, SPEKY_CACHE_DIR: path.join(scratch, "cache"), MODULES_OUT: out },
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBeLessThanOrEqual(1);
  return readFileSync(out, "utf8").split("\n");
}

// speky:speky-ts#TSEC-NO-NETWORK
describe("no command touches the network", () => {
  it.each([
    [["check", "speky.yaml"]],
    [["scan", "speky.yaml"]],
    [["scan", "--no-cache", "speky.yaml"]],
    [["export", "speky.yaml"]],
    [["report", "speky.yaml", "--out", path.join(scratch, "site")]],
    [["report", "speky.yaml", "--format", "markdown"]],
  ])("speky %j loads no module for a connection", (args) => {
    const loaded = modulesOf(args);
    // The preload saw the run: the loader, the scanner and the output's modules are built-ins too.
    expect(loaded).toContain("NativeModule fs");
    expect(loaded.length).toBeGreaterThan(50);
    expect(loaded.filter((m) => NETWORK.test(m))).toEqual([]);
  });

  it("the check would see one: a script that loads https is caught", () => {
    const out = path.join(scratch, "https.txt");
    const r = spawnSync(process.execPath, ["--require", PRELOAD, "-e", "require('node:https')"], {
      encoding: "utf8",
      env: { ...process.env, MODULES_OUT: out },
    });
    expect(r.status).toBe(0);
    expect(
      readFileSync(out, "utf8")
        .split("\n")
        .filter((m) => NETWORK.test(m)),
    ).toContain("NativeModule https");
  });
});
