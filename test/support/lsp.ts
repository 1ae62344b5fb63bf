// Talk to the built `speky lsp` as an editor does: a real LSP client connection
// (vscode-languageserver-protocol) over the child's stdio, documents opened and edited with
// didOpen/didChange, and waits on the server's own notifications (never on sleeps).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic, InitializeResult, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import {
  createProtocolConnection,
  type ProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { SPEKY_BIN } from "./process.js";

export interface Status {
  generation: number;
  state: string;
  manifests: string[];
  requirements: number;
  tests: number;
  code_references: number;
  scanned: boolean;
}

type Waiter<T> = { test: (value: T) => boolean; resolve: (value: T) => void };

export interface LspSession {
  connection: ProtocolConnection;
  initialize: InitializeResult;
  dir: string;
  uri(rel: string): string;
  /** Resolves with the first status (already seen or to come) that passes `test`. */
  status(test: (s: Status) => boolean): Promise<Status>;
  /** Resolves with the first diagnostics of `rel`, at `version` or later, that pass `test`. */
  diagnostics(rel: string, version: number, test?: (d: Diagnostic[]) => boolean): Promise<Diagnostic[]>;
  open(rel: string, text?: string, languageId?: string): number;
  change(rel: string, text: string): number;
  /** An incremental change, as editors send them: `text` replaces the range. */
  edit(rel: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }, text: string): number;
  save(rel: string): void;
  /** Tokens the server created with window/workDoneProgress/create, in order. */
  createdProgress: (string | number)[];
  /** Resolves with every `$/progress` value seen once one (already seen or to come) passes `test`. */
  progress(test: (value: ProgressValue) => boolean): Promise<{ token: string | number; value: ProgressValue }[]>;
  stderr(): string;
  close(): Promise<void>;
}

export interface ProgressValue {
  kind: "begin" | "report" | "end";
  title?: string;
  message?: string;
  percentage?: number;
}

export interface StartOptions {
  args?: string[];
  /** Added to the server's environment. */
  env?: NodeJS.ProcessEnv;
  /** The client's `window` capabilities (none by default). */
  window?: { workDoneProgress?: boolean };
  initializationOptions?: unknown;
  /** Workspace folder; default the session's directory. */
  folder?: string;
}

export async function startLsp(dir: string, options: StartOptions = {}): Promise<LspSession> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [SPEKY_BIN, "lsp", "--stdio", ...(options.args ?? [])], {
    cwd: dir,
    env: { ...process.env, SPEKY_CACHE_DIR: path.join(dir, ".cache"), ...options.env },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const statuses: Status[] = [];
  const statusWaiters: Waiter<Status>[] = [];
  const published: PublishDiagnosticsParams[] = [];
  const diagnosticWaiters: Waiter<PublishDiagnosticsParams>[] = [];
  connection.onNotification("$/speky/status", (s: Status) => {
    statuses.push(s);
    for (const w of statusWaiters.splice(0)) w.test(s) ? w.resolve(s) : statusWaiters.push(w);
  });
  connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
    published.push(p);
    for (const w of diagnosticWaiters.splice(0)) w.test(p) ? w.resolve(p) : diagnosticWaiters.push(w);
  });
  connection.onNotification("window/logMessage", () => undefined);
  const createdProgress: (string | number)[] = [];
  const progress: { token: string | number; value: ProgressValue }[] = [];
  const progressWaiters: Waiter<ProgressValue>[] = [];
  connection.onRequest("window/workDoneProgress/create", (p: { token: string | number }) => {
    createdProgress.push(p.token);
    return null;
  });
  connection.onNotification("$/progress", (p: { token: string | number; value: ProgressValue }) => {
    progress.push(p);
    for (const w of progressWaiters.splice(0)) w.test(p.value) ? w.resolve(p.value) : progressWaiters.push(w);
  });
  connection.onRequest("workspace/codeLens/refresh", () => null);
  connection.listen();
  const folder = options.folder ?? dir;
  const initialize = (await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: pathToFileURL(folder).href,
    workspaceFolders: [{ uri: pathToFileURL(folder).href, name: path.basename(folder) }],
    capabilities: {
      workspace: { codeLens: { refreshSupport: true } },
      textDocument: { publishDiagnostics: { versionSupport: true } },
      ...(options.window ? { window: options.window } : {}),
    },
    initializationOptions: options.initializationOptions,
  })) as InitializeResult;
  await connection.sendNotification("initialized", {});
  const versions = new Map<string, number>();
  const uri = (rel: string) => pathToFileURL(path.join(dir, rel)).href;
  return {
    connection,
    initialize,
    dir,
    uri,
    status(test) {
      const seen = statuses.find(test);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => statusWaiters.push({ test, resolve }));
    },
    diagnostics(rel, version, test = () => true) {
      const target = uri(rel);
      const passes = (p: PublishDiagnosticsParams) => p.uri === target && (p.version ?? 0) >= version && test(p.diagnostics);
      const seen = published.find(passes);
      if (seen) return Promise.resolve(seen.diagnostics);
      return new Promise((resolve) => diagnosticWaiters.push({ test: passes, resolve: (p) => resolve(p.diagnostics) }));
    },
    open(rel, text, languageId = "plaintext") {
      const content = text ?? readFileSync(path.join(dir, rel), "utf8");
      versions.set(rel, 1);
      void connection.sendNotification("textDocument/didOpen", { textDocument: { uri: uri(rel), languageId, version: 1, text: content } });
      return 1;
    },
    change(rel, text) {
      const version = (versions.get(rel) ?? 1) + 1;
      versions.set(rel, version);
      void connection.sendNotification("textDocument/didChange", { textDocument: { uri: uri(rel), version }, contentChanges: [{ text }] });
      return version;
    },
    edit(rel, range, text) {
      const version = (versions.get(rel) ?? 1) + 1;
      versions.set(rel, version);
      void connection.sendNotification("textDocument/didChange", {
        textDocument: { uri: uri(rel), version },
        contentChanges: [{ range, text }],
      });
      return version;
    },
    createdProgress,
    progress(test) {
      const all = () => progress.slice();
      if (progress.some((p) => test(p.value))) return Promise.resolve(all());
      return new Promise((resolve) => progressWaiters.push({ test, resolve: () => resolve(all()) }));
    },
    save(rel) {
      void connection.sendNotification("textDocument/didSave", { textDocument: { uri: uri(rel) } });
    },
    stderr: () => stderr,
    async close() {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      try {
        await connection.sendRequest("shutdown");
        await connection.sendNotification("exit");
      } catch {
        child.kill();
      }
      await exited;
      connection.dispose();
    },
  };
}
