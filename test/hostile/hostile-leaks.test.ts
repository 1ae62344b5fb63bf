// Issue 25, the leaks: the boundary of a tree outside git is its manifest's folder, never the
// folder the process runs in; credentials in git remote URLs never reach an output; git is
// asked once per repository, a few processes at a time; the report is never written through a
// link the checkout planted. Every run is a real child process; no output may hold the secret.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { withoutCredentials } from "../../src/loader/source-links.js";
import { call, connect } from "../support/mcp.js";
import { SPEKY_BIN, tempDir } from "../support/process.js";

const T = "speky" + ":";
const scratch = tempDir("speky-hostile-leaks-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(file: string, content: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** Every file below `dir`, read as text. */
function allText(dir: string): string {
  if (!existsSync(dir)) return "";
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(path.join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

/** speky as a child with a time limit, a fake HOME, and a git that knows nothing of the user's config. */
function speky(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [SPEKY_BIN, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CEILING_DIRECTORIES: scratch, ...env },
  });
  expect(r.signal, `timed out: ${r.stderr}`).toBeNull();
  return { status: r.status, out: r.stdout + r.stderr, stdout: r.stdout };
}

const REQS = "kind: requirements\ncategory: c\nrequirements:\n  - id: R1\n    long: x\n";

describe("the boundary of a tree outside git", () => {
  const SECRET = "home-secret-token-7c3a91";
  // A fake home folder (no git anywhere above: GIT_CEILING_DIRECTORIES), its secrets, and a
  // project below it; the process runs in the home folder or above it, as MCP hosts start servers.
  const home = path.join(scratch, "home");
  write(path.join(home, ".git-credentials"), `https://user:${SECRET}@github.com\n`);
  write(path.join(home, "notes.yaml"), `kind: requirements\ncategory: c\nrequirements:\n  - id: ${SECRET}\n    long: x\n`);
  write(path.join(home, "code/leak.py"), `# ${T}p#${SECRET}\ndef leak():\n    pass\n`);
  const proj = path.join(home, "work/proj");
  write(path.join(proj, "reqs.yaml"), REQS);
  const manifests: Record<string, string> = {
    "root-up.yaml": "root_directory: ../..\nfiles: ['*.yaml']\n",
    "files-up.yaml": "files: [reqs.yaml, '../../*.yaml']\n",
    "csv-up.yaml": "files: [reqs.yaml]\ncomments_csvs: ['../../.git-credentials']\n",
    "code-up.yaml": "files: [reqs.yaml]\ncode_sources: ['../../**/*.py', '../../.git-credentials']\n",
  };
  for (const [name, body] of Object.entries(manifests)) write(path.join(proj, name), `kind: project\nname: p\n${body}`);

  // One test per working directory: each spawns 22 commands, one after the other.
  // speky:speky-ts#TSEC-BOUNDARY-CWD
  describe("never reaches the home folder the process runs in, from any command, and reaches it with --allow-outside", () => {
    for (const [where, cwd] of [
      ["the home folder", home],
      ["a folder above it", scratch],
      ["/", "/"],
    ]) {
      it(`run in ${where}`, () => {
        for (const name of Object.keys(manifests)) {
          const manifest = path.join(proj, name);
          for (const args of [
            ["check", "--no-cache", manifest],
            ["check", "--no-cache", "--format", "github", manifest],
            ["scan", "--no-cache", manifest],
            ["report", "--format", "markdown", "--no-cache", manifest],
          ]) {
            const r = speky(args, cwd, { HOME: home });
            expect(r.out, `${args.join(" ")} in ${cwd}`).not.toContain(SECRET);
            expect(r.status, `${args.join(" ")} in ${cwd}: ${r.out}`).toBe(1);
            expect(r.out).toMatch(/outside the project/);
          }
          // The server refuses to start on the tree, saying why without the secret.
          const server = spawnSync(process.execPath, [SPEKY_BIN.replace(/speky\.js$/, "speky-mcp.js"), "--no-watch", manifest], {
            cwd,
            encoding: "utf8",
            timeout: 60_000,
            input: "",
            env: { ...process.env, HOME: home, GIT_CEILING_DIRECTORIES: scratch },
          });
          expect(server.status, server.stderr).toBe(1);
          expect(server.stdout + server.stderr).not.toContain(SECRET);
          expect(server.stderr).toMatch(/outside the project/);
        }
        // The report, wherever it is written, never holds the secret either (it is not written).
        const html = path.join(scratch, "report-out");
        const r = speky(["report", "--no-cache", "--out", html, path.join(proj, "root-up.yaml")], cwd, { HOME: home });
        expect(r.status).toBe(1);
        expect(allText(html)).not.toContain(SECRET);
      });
    }

    it("reaches it with --allow-outside", async () => {
      // A trusted tree: the same manifests reach the home folder with --allow-outside (the tests
      // above would have seen the secret had the boundary let it through).
      const trusted = speky(["scan", "--no-cache", "--allow-outside", path.join(proj, "code-up.yaml")], home, { HOME: home });
      expect(trusted.stdout).toContain(SECRET);
      const session = await connect(["--no-watch", "--allow-outside", path.join(proj, "root-up.yaml")], { cwd: home });
      try {
        const answer = await call(session.client, "get_requirement", { id: SECRET });
        expect(answer.isError).toBe(false);
      } finally {
        await session.close();
      }
    });
  });

  // speky:speky-ts#TSEC-BOUNDARY-CWD
  it("keeps the manifest's own folder and below it, wherever the process runs", () => {
    write(path.join(proj, "sub/more.yaml"), "kind: requirements\ncategory: c\nrequirements:\n  - id: R2\n    long: x\n");
    write(path.join(proj, "src/a.py"), `# ${T}p#R1\ndef a():\n    pass\n`);
    write(path.join(proj, "inside.yaml"), "kind: project\nname: p\nfiles: ['reqs.yaml', 'sub/*.yaml']\ncode_sources: ['src/*.py']\n");
    for (const cwd of [home, "/", proj]) {
      const r = speky(["scan", "--no-cache", path.join(proj, "inside.yaml")], cwd);
      expect(r.status, r.out).toBe(0);
      expect(JSON.parse(r.stdout).references.map((x: { id: string }) => x.id)).toEqual(["R1"]);
    }
  });
});

describe("credentials in git remote URLs", () => {
  const TOKEN = "ghp_remoteToken5b8e02";

  it("are stripped from every URL form git may hold", () => {
    expect(withoutCredentials(`https://user:${TOKEN}@example.com/org/repo`)).toBe("https://example.com/org/repo");
    expect(withoutCredentials(`https://${TOKEN}@example.com:8443/org/repo`)).toBe("https://example.com:8443/org/repo");
    expect(withoutCredentials(`https://a@b:${TOKEN}@example.com/r`)).toBe("https://example.com/r");
    expect(withoutCredentials(`ssh://git:${TOKEN}@example.com/org/repo`)).toBe("ssh://example.com/org/repo");
    expect(withoutCredentials(`${TOKEN}@example.com:org/repo`)).toBe("example.com:org/repo");
    expect(withoutCredentials(`https://example.com/org/repo?private_token=${TOKEN}#x`)).toBe("https://example.com/org/repo");
    expect(withoutCredentials("https://example.com/org/repo")).toBe("https://example.com/org/repo");
    expect(withoutCredentials("/srv/git/repo")).toBe("/srv/git/repo");
  });

  // speky:speky-ts#TSEC-GIT-CREDENTIALS
  it("never reach scan JSON, check, MCP answers or the report", async () => {
    for (const [i, remote] of [
      `https://ci:${TOKEN}@example.com/org/repo.git`,
      `https://${TOKEN}@example.com/org/repo`,
      `https://example.com/org/repo.git?access_token=${TOKEN}`,
    ].entries()) {
      const dir = path.join(scratch, `creds-${i}`);
      write(
        path.join(dir, "speky.yaml"),
        "kind: project\nname: p\nfiles: [reqs.yaml]\ncode_sources: ['*.py']\nsource_links:\n  url: auto\n",
      );
      write(path.join(dir, "reqs.yaml"), REQS);
      write(path.join(dir, "a.py"), `# ${T}p#R1\ndef a():\n    pass\n`);
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.org", ...args], { cwd: dir });
      git("init", "-q", "-b", "trunk");
      git("remote", "add", "origin", remote);
      git("add", "-A");
      git("commit", "-qm", "x");
      const scan = speky(["scan", "--no-cache", "speky.yaml"], dir);
      expect(scan.status, scan.out).toBe(0);
      expect(JSON.parse(scan.stdout).references[0].url).toBe("https://example.com/org/repo/blob/trunk/a.py#L2");
      expect(scan.out).not.toContain(TOKEN);
      const check = speky(["check", "--no-cache", "--format", "json", "speky.yaml"], dir);
      expect(check.out).not.toContain(TOKEN);
      const report = speky(["report", "--no-cache", "--out", "site", "speky.yaml"], dir);
      expect(report.status, report.out).toBe(0);
      const site = allText(path.join(dir, "site"));
      expect(site).toContain("https://example.com/org/repo/blob/trunk/a.py#L2");
      expect(site + report.out).not.toContain(TOKEN);
      const md = speky(["report", "--no-cache", "--format", "markdown", "speky.yaml"], dir);
      expect(md.out).not.toContain(TOKEN);
      const session = await connect(["--no-watch", "speky.yaml"], { cwd: dir });
      try {
        const answers = [
          await call(session.client, "get_requirement", { id: "R1" }),
          await call(session.client, "find_code_references", { file: "a.py" }),
          await call(session.client, "list_references_to", { id: "R1" }),
        ];
        const resources = await session.client.listResources();
        const text = JSON.stringify([answers, resources]);
        expect(text).toContain("https://example.com/org/repo/blob/trunk/a.py#L2");
        expect(text + session.stderr()).not.toContain(TOKEN);
      } finally {
        await session.close();
      }
    }
  });

  // speky:speky-ts#TSEC-GIT-ONCE
  it("asks git once per repository, at most 4 processes at a time, for 150 manifests", () => {
    // A git on PATH that logs each start and end, then runs the real one.
    const bin = path.join(scratch, "bin");
    const log = path.join(scratch, "git.log");
    const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    write(path.join(bin, "git"), `#!/bin/sh\necho "start $*" >> '${log}'\n'${realGit}' "$@"\nrc=$?\necho "end $*" >> '${log}'\nexit $rc\n`);
    chmodSync(path.join(bin, "git"), 0o755);
    const root = path.join(scratch, "many");
    const subs: string[] = [];
    // 5 repositories, 30 sub-projects each, all with source_links auto.
    for (let r = 0; r < 5; r++) {
      const repo = path.join(root, `repo${r}`);
      mkdirSync(repo, { recursive: true });
      execFileSync(realGit, ["init", "-q", "-b", "main", repo]);
      execFileSync(realGit, ["-C", repo, "remote", "add", "origin", `https://u:${TOKEN}@example.com/r${r}.git`]);
      for (let m = 0; m < 30; m++) {
        const name = `p${r}x${m}`;
        write(path.join(repo, `m${m}/speky.yaml`), `kind: project\nname: ${name}\nfiles: []\nsource_links:\n  url: auto\n  branch: main\n`);
        subs.push(path.relative(root, path.join(repo, `m${m}/speky.yaml`)));
      }
    }
    const top = write(path.join(root, "speky.yaml"), `kind: project\nname: top\nfiles: [${subs.map((s) => `'${s}'`).join(", ")}]\n`);
    const r = speky(["scan", "--no-cache", top], root, { PATH: `${bin}:${process.env.PATH}` });
    expect(r.out).not.toContain(TOKEN);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    const starts = lines.filter((l) => l.startsWith("start "));
    // Two questions per repository (the remote URL and the work tree; the branch is given).
    expect(starts.length).toBe(10);
    expect(new Set(starts).size).toBe(2);
    let running = 0;
    let most = 0;
    for (const line of lines) {
      running += line.startsWith("start ") ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBeLessThanOrEqual(4);
  });
});

describe("the report written through a link", () => {
  // speky:speky-ts#TSEC-REPORT-LINK
  it("refuses an output path leaving the checkout through a link it ships, and writes through links that stay inside", () => {
    const elsewhere = path.join(scratch, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    const repo = path.join(scratch, "linked-repo");
    write(path.join(repo, "speky.yaml"), "kind: project\nname: p\nfiles: [reqs.yaml]\n");
    write(path.join(repo, "reqs.yaml"), REQS);
    symlinkSync(elsewhere, path.join(repo, "public"));
    mkdirSync(path.join(repo, "docs/real"), { recursive: true });
    symlinkSync("docs/real", path.join(repo, "inside"));
    symlinkSync(path.join(scratch, "missing"), path.join(repo, "dangling"));
    for (const [out, format] of [
      ["public/trace", "html"],
      ["public/trace", "markdown"],
      ["public", "html"],
      ["./docs/../public/x/y", "html"],
      ["dangling/x", "html"],
    ]) {
      const r = speky(["report", "--no-cache", "--format", format, "--out", out, "speky.yaml"], repo);
      expect(r.status, `${out}: ${r.out}`).toBe(2);
      expect(r.out).toMatch(/leads out of the working folder through '(public|dangling)', a symbolic link|is a symbolic link/);
      expect(readdirSync(elsewhere)).toEqual([]);
    }
    expect(existsSync(path.join(scratch, "missing"))).toBe(false);
    const inside = speky(["report", "--no-cache", "--out", "inside/trace", "speky.yaml"], repo);
    expect(inside.status, inside.out).toBe(0);
    expect(existsSync(path.join(repo, "docs/real/trace/index.html"))).toBe(true);
    // A folder the user names outside the working folder is the user's own choice.
    const named = speky(["report", "--no-cache", "--out", path.join(elsewhere, "site"), "speky.yaml"], repo);
    expect(named.status, named.out).toBe(0);
    expect(existsSync(path.join(elsewhere, "site/index.html"))).toBe(true);
  });
});
