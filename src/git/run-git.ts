// Every git command speky runs, run one way: a repository's configuration (.git/config, and the
// files it includes) is hostile input, and must not be able to make git run a command of its
// choosing. Only plumbing that reads objects and refs is run (rev-parse, ls-tree, cat-file,
// remote get-url); nothing here reads the working tree through git, so no clean filter, no
// fsmonitor and no index write (with its hook) can happen; the settings below close what is
// left even so: no pager, no hooks, no fsmonitor, no transport (a partial clone's lazy fetch
// would run ssh or a credential helper), no system configuration, no optional locks, no
// replace refs (the objects read are the commit's own).
//
// No transport, three times over (issue 48): GIT_NO_LAZY_FETCH (git 2.39.4 and 2.44 on; older
// git ignores it), every protocol's own `allow` set to never on the command line (a
// repository's `protocol.file.allow=always` beat our `protocol.allow=never`: a protocol's own
// key wins over the general one, and command-line keys win over the repository's), and
// GIT_ALLOW_PROTOCOL empty, which allows no protocol whatever any configuration says (git 2.6.1
// on), remote helpers of any name included.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

// speky:speky-ts#DIFF-NO-TRANSPORT
const SAFE_OPTIONS = [
  "--no-pager",
  "--no-optional-locks",
  "--no-replace-objects",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.pager=cat",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "protocol.allow=never",
  ...["file", "git", "ssh", "http", "https", "ext", "fd"].flatMap((name) => ["-c", `protocol.${name}.allow=never`]),
  "-c",
  "credential.helper=",
];

/** The environment git runs in: the user's, with what a repository could steer pinned. */
export function gitEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_NO_LAZY_FETCH: "1",
    GIT_ALLOW_PROTOCOL: "",
    GIT_PROTOCOL_FROM_USER: "0",
    GIT_OPTIONAL_LOCKS: "0",
    // Messages are read by people, not parsed; one language keeps them (and the tests) stable.
    LC_ALL: "C",
  };
}

/** The full argument list of a git command run safely. */
export function safeGitArgs(args: readonly string[]): string[] {
  return [...SAFE_OPTIONS, ...args];
}

export type GitResult = { ok: true; stdout: Buffer } | { ok: false; reason: string };

export interface GitRunOptions {
  /** Written to git's standard input, then closed. */
  input?: string | Buffer;
  /** More output than this fails the command (it is killed). Default 16 MiB. */
  maxBytes?: number;
  /** Milliseconds before the command is killed. Default 30 s. */
  timeoutMs?: number;
}

/** The first line of git's complaint, or of the error, for a message. */
function reasonOf(stderr: string, fallback: string): string {
  const line = stderr
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return (line ?? fallback).replace(/^(fatal|error): /, "");
}

// speky:speky-ts#DIFF-GIT-SAFE
/** Runs `git ARGS` in `cwd` with its output collected (bounded), never through a shell. */
export function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  return new Promise((resolve) => {
    let child: ChildProcessByStdio<Writable, Readable, Readable>;
    try {
      child = spawn("git", safeGitArgs(args), { cwd, env: gitEnvironment(), stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      resolve({ ok: false, reason: `cannot run git (${(error as Error).message})` });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let failure: string | null = null;
    const timer = setTimeout(() => {
      failure = `git ${args[0]} took longer than ${Math.round((options.timeoutMs ?? 30_000) / 1000)} s`;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        failure ??= `git ${args[0]} wrote more than ${maxBytes} bytes`;
        child.kill("SIGKILL");
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    child.stdin.on("error", () => undefined); // git may exit before reading all of it
    child.on("error", (error: NodeJS.ErrnoException) => {
      failure ??= error.code === "ENOENT" ? "git is not installed (not found on PATH)" : `cannot run git (${error.message})`;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (failure !== null) resolve({ ok: false, reason: failure });
      else if (code !== 0) resolve({ ok: false, reason: reasonOf(stderr, `git ${args[0]} exited ${code}`) });
      else resolve({ ok: true, stdout: Buffer.concat(chunks) });
    });
    child.stdin.end(options.input ?? "");
  });
}

export interface GitStream {
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Resolves when git has exited: null when it succeeded, else why not. */
  done: Promise<string | null>;
}

/** Starts `git ARGS` for a caller that streams its input and output (large trees, many blobs). */
export function streamGit(cwd: string, args: readonly string[]): GitStream {
  const child = spawn("git", safeGitArgs(args), { cwd, env: gitEnvironment(), stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  let failure: string | null = null;
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString("utf8");
  });
  child.stdin.on("error", () => undefined);
  const done = new Promise<string | null>((resolve) => {
    child.on("error", (error: NodeJS.ErrnoException) => {
      failure ??= error.code === "ENOENT" ? "git is not installed (not found on PATH)" : `cannot run git (${error.message})`;
    });
    child.on("close", (code, signal) => {
      if (failure !== null) resolve(failure);
      else if (code !== 0) resolve(reasonOf(stderr, `git ${args[0]} ${signal ? `was killed (${signal})` : `exited ${code}`}`));
      else resolve(null);
    });
  });
  return { child, done };
}
