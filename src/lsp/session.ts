// What every feature of the language server shares: the connection, the documents as the
// editor holds them (and their syntax trees), the client's settings from `initialize`, and
// the project once it is loaded. Features bind their requests on it (src/lsp/features/) and
// follow the model through its events.
import { EventEmitter } from "node:events";
import path from "node:path";
import {
  type CancellationToken,
  type ClientCapabilities,
  type Connection,
  type Disposable,
  type InitializeParams,
  TextDocuments,
} from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { absOf, uriOf } from "./locations.js";
import type { OpenText, Project } from "./project.js";
import { isSpecText } from "./spec.js";
import { DocumentTrees } from "./trees.js";

export interface ServerOptions {
  /** Manifests given on the command line (absolute): they take precedence over everything. */
  manifests: string[];
  /** Watch the files (tests of a fixed tree may turn it off). */
  watch?: boolean;
  /** `--results` globs of JUnit XML files, absolute. */
  results?: string[];
}

/** A status notification that tests and curious clients can follow; others ignore `$/`. */
const STATUS_NOTIFICATION = "$/speky/status";

export interface Status {
  generation: number;
  state: "loading" | "ready" | "failed" | "no-manifest";
  manifests: string[];
  requirements: number;
  tests: number;
  code_references: number;
  scanned: boolean;
  /** The positions of the IDs of every spec file are known. */
  indexed: boolean;
}

const DEFAULT_WAIT_MS = 10_000;

/** How long a request waits for the first load: $SPEKY_LSP_WAIT_MS (tests), else 10 s. */
function loadWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SPEKY_LSP_WAIT_MS;
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : DEFAULT_WAIT_MS;
}

/** What an answer needs of the first load: the specs, or the code references too (the scan). */
type Needs = "specs" | "scan";

export interface SessionEvents {
  /** A new model is served (first load, reload, or the scan finished). */
  changed: [];
  /** The specs failed to load or to reload (the last good model, if any, stays). */
  rejected: [];
  /** The client asked the server to shut down. */
  shutdown: [];
}

export class Session extends EventEmitter<SessionEvents> {
  readonly documents = new TextDocuments(TextDocument);
  readonly trees = new DocumentTrees();
  project: Project | null = null;
  state: Status["state"] = "loading";
  /** Workspace folders (absolute), from `initialize`. */
  folders: string[] = [];
  /** initializationOptions.manifests, resolved against the first folder. */
  initManifests: string[] = [];
  capabilities: ClientCapabilities = {};
  private firstLoadOver = false;
  private endFirstLoad!: () => void;
  private readonly firstLoad = new Promise<void>((resolve) => (this.endFirstLoad = resolve));

  constructor(
    readonly connection: Connection,
    readonly options: ServerOptions,
  ) {
    super();
  }

  /** Takes the client's folders, options and capabilities from `initialize`. */
  configure(params: InitializeParams): void {
    this.folders = (params.workspaceFolders ?? []).map((f) => absOf(f.uri)).filter((f): f is string => f !== null);
    if (this.folders.length === 0 && params.rootUri) {
      const root = absOf(params.rootUri);
      if (root) this.folders.push(root);
    }
    const init = params.initializationOptions as { manifests?: unknown } | undefined;
    const base = this.folders[0] ?? process.cwd();
    if (Array.isArray(init?.manifests)) {
      this.initManifests = init.manifests.filter((m): m is string => typeof m === "string").map((m) => path.resolve(base, m));
    }
    this.capabilities = params.capabilities;
  }

  /** The first load is over: its specs are served or refused, or there is no manifest to load. */
  firstLoadDone(): void {
    if (this.firstLoadOver) return;
    this.firstLoadOver = true;
    this.endFirstLoad();
  }

  // speky:speky-ts#LSP-FIRST-LOAD
  /**
   * Waits for what a request's answer needs: the first load of the specs and, for `scan`, the
   * first scan of the code sources. An editor asks as soon as it opens a file, before either
   * is done. Bounded by loadWaitMs() and the request's cancellation: the request then answers
   * with what is known.
   */
  async loaded(needs: Needs, token?: CancellationToken): Promise<void> {
    const scanning = () => (needs === "scan" ? this.project?.scanProgress?.finished : undefined);
    if (this.firstLoadOver && !scanning()) return;
    let timer: NodeJS.Timeout | undefined;
    let cancel: Disposable | undefined;
    const stop = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, loadWaitMs());
      cancel = token?.onCancellationRequested(() => resolve());
    });
    try {
      await Promise.race([this.firstLoad, stop]);
      const scan = scanning();
      if (scan) await Promise.race([scan, stop]);
    } finally {
      clearTimeout(timer);
      cancel?.dispose();
    }
  }

  /** The text of an open buffer, if the file is open. */
  readonly openText = (abs: string): OpenText | undefined => {
    const doc = this.documents.get(uriOf(abs));
    return doc ? { text: doc.getText(), version: doc.version } : undefined;
  };

  /** Open buffers that are spec files. */
  specDocs(): TextDocument[] {
    return this.documents.all().filter((d) => {
      const abs = absOf(d.uri);
      return abs !== null && isSpecText(abs, d.getText());
    });
  }

  sendStatus(): void {
    const project = this.project;
    const model = project?.model ?? null;
    const status: Status = {
      generation: project?.generation ?? 0,
      state: this.state,
      manifests: project?.paths ?? [],
      requirements: model?.requirementIds.length ?? 0,
      tests: model?.testIds.length ?? 0,
      code_references: model?.codeReferences.length ?? 0,
      scanned: model !== null && !project!.scanning,
      indexed: project?.indexed ?? false,
    };
    void this.connection.sendNotification(STATUS_NOTIFICATION, status);
  }
}
