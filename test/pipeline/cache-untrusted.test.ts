// Issue 12, defect 5: the scan cache is untrusted input. Each reproduction of the issue runs
// the real `speky scan --verbose` on a small tree with a private cache folder, spoils the
// cache the way the issue did, and checks that the answer is the one of a scan without cache,
// that the run ends (spawnSync with a timeout: a hang fails the test) and that --verbose says
// why the cache was not used.
import { spawnSync } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { layout } from "../../src/scan/cache/cache-file.js";
import { SPEKY_BIN, tempDir } from "../support/process.js";

const T = "speky" + ":";
const scratch = tempDir("speky-cache-untrusted-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tree = path.join(scratch, "tree");
const cache = path.join(scratch, "cache");

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function scan(...extra: string[]): Run {
  const r = spawnSync(process.execPath, [SPEKY_BIN, "scan", "--project", "p", ".", "--verbose", ...extra], {
    cwd: tree,
    env: { ...process.env, SPEKY_CACHE_DIR: cache },
    encoding: "utf8",
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw new Error(`speky scan did not end: ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const strip = (json: string) => json.replace(/"ms": \d+/, '"ms": 0');

function cacheFile(): string {
  const names = readdirSync(cache).filter((n) => n.startsWith("scan-") && n.endsWith(".json"));
  expect(names).toHaveLength(1);
  return path.join(cache, names[0]);
}

/** A cache file's parts (src/scan/cache/cache-file.ts, layout): header, stamps, paths, meta line, trailer line. */
interface Parts {
  header: { rows: number; pathBytes: number } & Record<string, unknown>;
  stamps: Buffer;
  paths: string;
  meta: string;
  trailer: string;
}

function decode(file: string): Parts {
  const bytes = readFileSync(file);
  const first = bytes.indexOf(0x0a);
  const header = JSON.parse(bytes.toString("utf8", 0, first)) as Parts["header"];
  const { stampsAt, pathsAt, metaAt } = layout(first, header.rows, header.pathBytes);
  const last = bytes.lastIndexOf(0x0a, bytes.length - 2);
  return {
    header,
    stamps: bytes.subarray(stampsAt, pathsAt),
    paths: bytes.toString("utf8", pathsAt, metaAt),
    meta: bytes.toString("utf8", metaAt, last),
    trailer: bytes.toString("utf8", last + 1, bytes.length - 1),
  };
}

/** The bytes a trailer signs: the header line, its padding, the columns and the meta line. */
function signedPart({ header, stamps, paths, meta }: Omit<Parts, "trailer">): Buffer {
  const headerLine = Buffer.from(JSON.stringify(header));
  const pad = Buffer.alloc(layout(headerLine.length, 0, 0).stampsAt - headerLine.length);
  pad[0] = 0x0a;
  return Buffer.concat([headerLine, pad, stamps, Buffer.from(paths), Buffer.from(meta)]);
}

/** A cache file signed with `key` (the user's key: a cache valid in all but what the test spoils). */
function signed(parts: Omit<Parts, "trailer">, key: Buffer): Buffer {
  const body = signedPart(parts);
  const mac = createHmac("sha256", key).update(body).digest("base64");
  return Buffer.concat([body, Buffer.from(`\n${JSON.stringify({ entries: parts.header.rows, mac })}\n`)]);
}

const userKey = () => Buffer.from(readFileSync(path.join(cache, "key"), "utf8").trim(), "hex");

let fresh: string;

beforeEach(() => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(path.join(tree, "src"), { recursive: true });
  writeFileSync(path.join(tree, "src/a.py"), `# ${T}p#PY1\ndef a():\n    pass\n`);
  writeFileSync(path.join(tree, "src/b.py"), `# ${T}p#PY2\ndef b():\n    pass\n`);
  fresh = strip(scan("--no-cache").stdout);
  // The cache written, then used once: it is valid before each test spoils it.
  scan();
  const used = scan();
  expect(strip(used.stdout)).toBe(fresh);
  expect(used.stderr).toBe("");
});

/** Scans with the spoiled cache: the fresh answer, a --verbose line matching `why`; then the cache works again. */
function expectIgnored(why: RegExp): void {
  const r = scan();
  expect(r.status).toBe(0);
  expect(strip(r.stdout)).toBe(fresh);
  expect(r.stderr).toMatch(why);
}

describe("the scan cache is untrusted (issue 12, defect 5)", () => {
  // speky:speky-ts#TCACHE-UNTRUSTED
  it("ignores a cache edited to inject or remove references, its checksum recomputed", () => {
    const file = cacheFile();
    const parts = decode(file);
    const injected = { ...parts, meta: parts.meta.replace('"id":"PY1"', '"id":"FAKE"') };
    expect(injected.meta).not.toBe(parts.meta);
    // The old format's checksum (sha256 of what is signed), and an HMAC with a key that is not the user's.
    const checksum = createHash("sha256").update(signedPart(injected)).digest("base64");
    writeFileSync(
      file,
      Buffer.concat([signedPart(injected), Buffer.from(`\n${JSON.stringify({ entries: parts.header.rows, checksum })}\n`)]),
    );
    expectIgnored(/scan cache .* not used: trailer is invalid/);
    writeFileSync(file, signed(injected, Buffer.alloc(32, 7)));
    expectIgnored(/scan cache .* not used: its signature does not verify/);
    // Removing a reference: the same.
    const removed = parts.meta.replace(/\{"line":2,"column":5,"tag_line":1,"tag_column":3,"project":"p","id":"PY2"[^}]*\}/, "");
    expect(removed).not.toBe(parts.meta);
    writeFileSync(file, signed({ ...parts, meta: removed }, Buffer.alloc(32, 7)));
    expectIgnored(/its signature does not verify/);
  });

  // speky:speky-ts#TCACHE-UNTRUSTED
  it("neither reads nor writes a cache folder others may write to", () => {
    chmodSync(cache, 0o777);
    const file = cacheFile();
    const before = statSync(file).mtimeMs;
    expectIgnored(/scan cache not used: the cache folder is writable by others \(mode 777\)/);
    expect(statSync(file).mtimeMs).toBe(before);
    chmodSync(cache, 0o770);
    expectIgnored(/the cache folder is writable by its group/);
    chmodSync(cache, 0o700);
    expect(scan().stderr).toBe("");
  });

  // speky:speky-ts#TCACHE-UNTRUSTED
  it("ignores a cache file others may write to", () => {
    const file = cacheFile();
    chmodSync(file, 0o666);
    expectIgnored(/not used: the file is writable by others/);
    // Rewritten by that run, private again.
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    expect(scan().stderr).toBe("");
  });

  // speky:speky-ts#TCACHE-UNTRUSTED
  it.skipIf(process.getuid?.() !== 0)("ignores another user's cache file and folder (run as root: chown)", () => {
    const file = cacheFile();
    chownSync(file, 65534, 65534);
    expectIgnored(/not used: the file belongs to another user \(uid 65534\)/);
    chownSync(cache, 65534, 65534);
    expectIgnored(/scan cache not used: the cache folder belongs to another user \(uid 65534\)/);
    chownSync(cache, 0, 0);
  });

  // speky:speky-ts#TCACHE-UNTRUSTED
  it("discards a well-formed, signed cache with a field of the wrong type, every run ending well", () => {
    const file = cacheFile();
    const parts = decode(file);
    const spoilt: [string, string, RegExp][] = [
      ['"project":"p"', '"project":5', /tag\.project is invalid/],
      [
        '{"line":2,"column":5,"tag_line":1,"tag_column":3,"project":"p","id":"PY1"',
        'null,{"line":2,"column":5,"tag_line":1,"tag_column":3,"project":"p","id":"PY1"',
        /tag is not an object/,
      ],
      ['"language":"python"', '"language":7', /result\.language is invalid/],
    ];
    for (const [from, to, why] of spoilt) {
      const changed = parts.meta.replace(from, to);
      expect(changed, to).not.toBe(parts.meta);
      writeFileSync(file, signed({ ...parts, meta: changed }, userKey()));
      expectIgnored(why);
      // The run wrote a good cache again: the next one uses it.
      expect(scan().stderr).toBe("");
    }
    // Columns that do not fit the header: a row more (its stamp and path missing), the paths' byte count off by one or past the end.
    const header = decode(file).header;
    for (const spoilt of [
      { rows: header.rows + 1 },
      { pathBytes: header.pathBytes + 1 },
      { pathBytes: header.pathBytes - 1 },
      { pathBytes: 1e9 },
    ]) {
      writeFileSync(file, signed({ ...decode(file), header: { ...header, ...spoilt } }, userKey()));
      expectIgnored(/sections are invalid/);
      expect(scan().stderr).toBe("");
    }
  });

  // speky:speky-ts#TCACHE-UNTRUSTED
  it("never uses a remembered walk that names a file outside its folder (a FIFO that would hang)", () => {
    const fifo = path.join(scratch, "fifo.py");
    const made = spawnSync("mkfifo", [fifo]);
    expect(made.status).toBe(0);
    const file = cacheFile();
    const parts = decode(file);
    const meta = JSON.parse(parts.meta) as { walks: [string, string, number[], ...unknown[]][] };
    expect(meta.walks).toHaveLength(1);
    // A row more: its stamp (size, mtime, ctime: three doubles), its path, and a run of one row in the walk's files.
    const { rows } = parts.header;
    meta.walks[0][2].push(rows, 1);
    const paths = `${parts.paths}\n${fifo}`;
    const header = { ...parts.header, rows: rows + 1, pathBytes: Buffer.byteLength(paths) };
    writeFileSync(
      file,
      signed({ header, stamps: Buffer.concat([parts.stamps, Buffer.alloc(24)]), paths, meta: JSON.stringify(meta) }, userKey()),
    );
    expectIgnored(/walk of .* not used: it lists a file outside it/);
  });

  // speky:speky-ts#TCACHE-UNTRUSTED
  it("never uses a remembered walk whose files outside the rows name a file outside its folder", () => {
    const fifo = path.join(scratch, "fifo.py");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const file = cacheFile();
    const parts = decode(file);
    // The FIFO by its absolute path, then by a path relative to the tree: a walk's files that
    // are no row (reached through a link) are a column of their own.
    for (const outside of [fifo, "../fifo.py"]) {
      const meta = JSON.parse(parts.meta) as { walks: unknown[][] };
      expect(meta.walks).toHaveLength(1);
      meta.walks[0][6] = outside;
      writeFileSync(file, signed({ ...parts, meta: JSON.stringify(meta) }, userKey()));
      expectIgnored(/walk of .* not used: it lists a file outside it/);
    }
  });

  // speky:speky-ts#TCACHE-UNTRUSTED
  it("neither hangs on a cache file that is a FIFO nor reads one that links to /dev/zero", () => {
    const file = cacheFile();
    unlinkSync(file);
    expect(spawnSync("mkfifo", [file]).status).toBe(0);
    expectIgnored(/not used: a FIFO/);
    // The run replaced the FIFO with a cache file.
    expect(statSync(file).isFile()).toBe(true);
    unlinkSync(file);
    symlinkSync("/dev/zero", file);
    expectIgnored(/not used: a symbolic link, not followed here/);
    unlinkSync(file);
    // A cache file larger than the cap is not read either.
    writeFileSync(file, Buffer.alloc(65 * 1024 * 1024, 0x20));
    expectIgnored(/not used: file is too large/);
  });
});
