// The language server: documents as the editor holds them, the project's live model, and
// one handler per feature. Nothing here waits for the scan: requests answer from the model
// served at that moment (none before the first load: empty answers).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type CodeLens,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type Location,
  type SymbolInformation,
  SymbolKind,
  TextDocumentSyncKind,
  TextDocuments,
} from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { isRefusal, readRegularSync } from "../fs/safe-read.js";
import { discoverManifests } from "../loader/discover.js";
import { MAX_FILE_BYTES } from "../loader/files.js";
import { VERSION } from "../version.js";
import { describeItem, describeUnknown, lensTitle } from "./describe.js";
import { Project } from "./project.js";
import { idItems, MAX_COMPLETIONS, matchingIds, sourceCompletion, sourceDiagnostics, tagAt } from "./source.js";
import { fileDiagnostics, idFieldAt, isSpecText, specDiagnostics, toLsp } from "./spec.js";
import { type IdSpot, spotAt } from "./spec-index.js";
import { splitLines, utf16Column } from "./text.js";
import { DocumentTrees } from "./trees.js";

export interface ServerOptions {
  /** Manifests given on the command line (absolute): they take precedence over everything. */
  manifests: string[];
  /** Watch the files (tests of a fixed tree may turn it off). */
  watch?: boolean;
}

/** Quiet time after a keystroke before the buffer is diagnosed. */
const SOURCE_DEBOUNCE_MS = 50;
const SPEC_DEBOUNCE_MS = 80;
const MAX_SYMBOLS = 500;
/** A status notification that tests and curious clients can follow; others ignore `$/`. */
export const STATUS_NOTIFICATION = "$/speky/status";

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

function absOf(uri: string): string | null {
  return uri.startsWith("file:") ? fileURLToPath(uri) : null;
}

const uriOf = (abs: string) => pathToFileURL(abs).href;

function lineOf(doc: TextDocument, line: number): string {
  return doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, "");
}

export function startServer(connection: Connection, options: ServerOptions): void {
  const documents = new TextDocuments(TextDocument);
  let project: Project | null = null;
  let state: Status["state"] = "loading";
  let lensRefresh = false;
  const timers = new Map<string, NodeJS.Timeout>();
  const trees = new DocumentTrees();

  const openText = (abs: string) => {
    const doc = documents.get(uriOf(abs));
    return doc ? { text: doc.getText(), version: doc.version } : undefined;
  };
  const specDocs = () => documents.all().filter((d) => absOf(d.uri) && isSpecText(absOf(d.uri)!, d.getText()));

  function sendStatus(): void {
    const model = project?.model ?? null;
    const status: Status = {
      generation: project?.generation ?? 0,
      state,
      manifests: project?.paths ?? [],
      requirements: model?.requirementIds.length ?? 0,
      tests: model?.testIds.length ?? 0,
      code_references: model?.codeReferences.length ?? 0,
      scanned: model !== null && !project!.scanning,
      indexed: project?.indexed ?? false,
    };
    void connection.sendNotification(STATUS_NOTIFICATION, status);
  }

  // --- diagnostics -------------------------------------------------------------------
  async function diagnoseSource(doc: TextDocument): Promise<void> {
    const abs = absOf(doc.uri);
    const model = project?.model;
    if (!abs || !project || !model) return;
    const { version } = doc;
    const text = doc.getText();
    const { diagnostics, tags } = await sourceDiagnostics(project, model, abs, text, await trees.parse(doc.uri, abs, text));
    if (documents.get(doc.uri)?.version !== version) return;
    project.setOverlay(abs, tags);
    void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics });
  }

  /** Whole loads (manifests, comments files, a first load that failed) run one at a time. */
  let wholeLoads: Promise<void> = Promise.resolve();

  // speky:speky-ts#LSP-SPEC-DIAGNOSTICS
  async function diagnoseSpec(doc: TextDocument): Promise<void> {
    const abs = absOf(doc.uri);
    if (!abs || !project || project.paths.length === 0) return;
    const { version } = doc;
    const text = doc.getText();
    const fast = await fileDiagnostics(project, abs, text);
    if (fast) {
      if (documents.get(doc.uri)?.version === version)
        void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics: fast.map((d) => toLsp(d, text)) });
      return;
    }
    wholeLoads = wholeLoads.then(async () => {
      if (!project || documents.get(doc.uri)?.version !== version) return;
      const overlay = new Map(specDocs().map((d) => [absOf(d.uri)!, d.getText()]));
      const roots = [...(project.model?.manifests.map((m) => m.root) ?? []), ...project.paths.map((p) => path.dirname(p)), project.cwd];
      const found = await specDiagnostics(project.paths, project.cwd, overlay, roots);
      if (documents.get(doc.uri)?.version === version)
        void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics: found.get(abs) ?? [] });
    });
    return wholeLoads;
  }

  function schedule(doc: TextDocument): void {
    const abs = absOf(doc.uri);
    if (!abs) return;
    const spec = isSpecText(abs, doc.getText());
    clearTimeout(timers.get(doc.uri));
    timers.set(
      doc.uri,
      setTimeout(
        () => {
          timers.delete(doc.uri);
          const run = spec ? diagnoseSpec(doc) : diagnoseSource(doc);
          run.catch((error: unknown) => connection.console.error(`speky: diagnostics failed: ${String(error)}`));
        },
        spec ? SPEC_DEBOUNCE_MS : SOURCE_DEBOUNCE_MS,
      ),
    );
  }

  function rediagnoseAll(): void {
    for (const doc of documents.all()) schedule(doc);
  }

  // --- life cycle --------------------------------------------------------------------
  let folders: string[] = [];
  let fromInit: string[] = [];

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    folders = (params.workspaceFolders ?? []).map((f) => absOf(f.uri)).filter((f): f is string => f !== null);
    if (folders.length === 0 && params.rootUri) {
      const root = absOf(params.rootUri);
      if (root) folders.push(root);
    }
    const init = params.initializationOptions as { manifests?: unknown } | undefined;
    const base = folders[0] ?? process.cwd();
    if (Array.isArray(init?.manifests)) {
      fromInit = init.manifests.filter((m): m is string => typeof m === "string").map((m) => path.resolve(base, m));
    }
    lensRefresh = params.capabilities.workspace?.codeLens?.refreshSupport === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        completionProvider: { triggerCharacters: [":", "#", "-", " ", "[", ",", '"', "'"] },
        codeLensProvider: { resolveProvider: false },
        workspaceSymbolProvider: true,
      },
      serverInfo: { name: "speky", version: VERSION },
    };
  });

  // speky:speky-ts#LSP-DISCOVER
  connection.onInitialized(() => {
    void (async () => {
      const cwd = folders[0] ?? process.cwd();
      const paths =
        options.manifests.length > 0
          ? options.manifests
          : fromInit.length > 0
            ? fromInit
            : await discoverManifests(folders.length > 0 ? folders : [cwd]);
      project = new Project(paths, cwd, openText, options.watch ?? true);
      project.on("changed", () => {
        state = "ready";
        const model = project!.model!;
        connection.console.info(
          `speky: ${model.requirementIds.length} requirements, ${model.testIds.length} tests, ${model.codeReferences.length} code references`,
        );
        sendStatus();
        rediagnoseAll();
        if (lensRefresh) void connection.sendRequest("workspace/codeLens/refresh").catch(() => undefined);
      });
      project.on("rejected", (problems) => {
        if (!project!.model) state = "failed";
        connection.console.warn(`speky: the specification does not load (${problems.filter((p) => p.severity === "error").length} errors)`);
        sendStatus();
        rediagnoseAll();
      });
      project.on("indexed", () => sendStatus());
      project.on("warning", (message) => connection.console.warn(`speky: ${message}`));
      if (paths.length === 0) {
        state = "no-manifest";
        connection.console.warn("speky: no manifest (kind: project) found in the workspace");
        sendStatus();
        return;
      }
      sendStatus();
      await project.open();
    })().catch((error: unknown) => connection.console.error(`speky: cannot load: ${error instanceof Error ? error.stack : String(error)}`));
  });

  connection.onShutdown(() => {
    project?.close();
    for (const t of timers.values()) clearTimeout(t);
  });

  documents.onDidChangeContent(({ document }) => schedule(document));
  documents.onDidSave(() => project?.retry());
  documents.onDidClose(({ document }) => {
    const abs = absOf(document.uri);
    if (abs) project?.dropOverlay(abs);
    trees.close(document.uri);
    clearTimeout(timers.get(document.uri));
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });

  // --- what is under the cursor --------------------------------------------------------
  interface Target {
    id: string;
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
  }

  const rangeOf = (s: Pick<IdSpot, "line" | "start" | "end">) => ({
    start: { line: s.line, character: s.start },
    end: { line: s.line, character: s.end },
  });

  async function targetAt(uri: string, position: { line: number; character: number }, inSpecDefinitions: boolean): Promise<Target | null> {
    const doc = documents.get(uri);
    const abs = absOf(uri);
    if (!doc || !abs || !project?.model) return null;
    if (isSpecText(abs, doc.getText())) {
      const index = await project.indexOf(abs);
      const spot =
        spotAt(index.mentions, position.line, position.character) ??
        (inSpecDefinitions ? spotAt(index.definitions, position.line, position.character) : undefined);
      return spot ? { id: spot.id, range: rangeOf(spot) } : null;
    }
    const tag = tagAt(lineOf(doc, position.line), position.line, position.character);
    if (!tag || project.projectNamed(tag.project) === undefined) return null;
    return { id: tag.id, range: rangeOf(tag) };
  }

  // speky:speky-ts#LSP-HOVER
  connection.onHover(async ({ textDocument, position }) => {
    const target = await targetAt(textDocument.uri, position, true);
    const model = project?.model;
    if (!target || !model || !project) return null;
    const item = model.byId.get(target.id);
    const value = item ? describeItem(project, model, item) : describeUnknown(model, target.id);
    return { contents: { kind: "markdown", value }, range: target.range };
  });

  // speky:speky-ts#LSP-DEFINITION
  connection.onDefinition(async ({ textDocument, position }) => {
    const target = await targetAt(textDocument.uri, position, false);
    const item = target && project?.model?.byId.get(target.id);
    if (!item || !project) return null;
    const { abs, spot } = await project.definitionOf(item);
    return { uri: uriOf(abs), range: rangeOf(spot) };
  });

  /** Converts scanner columns (code points) with the file's text, read once per file. */
  function lineReader(): (abs: string, line: number) => string {
    const cache = new Map<string, string[]>();
    return (abs, line) => {
      let lines = cache.get(abs);
      if (!lines) {
        let text = openText(abs)?.text;
        if (text === undefined) {
          try {
            text = readFileCapped(abs);
          } catch {
            text = "";
          }
        }
        lines = splitLines(text);
        cache.set(abs, lines);
      }
      return lines[line] ?? "";
    };
  }

  // speky:speky-ts#LSP-REFERENCES
  connection.onReferences(async ({ textDocument, position, context }) => {
    const target = await targetAt(textDocument.uri, position, true);
    const model = project?.model;
    if (!target || !model || !project) return [];
    const id = target.id;
    const out: Location[] = [];
    const item = model.byId.get(id);
    if (item && context.includeDeclaration) {
      const { abs, spot } = await project.definitionOf(item);
      out.push({ uri: uriOf(abs), range: rangeOf(spot) });
    }
    const read = lineReader();
    for (const tag of project.tagsOf(id)) {
      const start = utf16Column(read(tag.abs, tag.line), tag.column);
      const length = `speky:${tag.project}#${tag.id}`.length;
      out.push({
        uri: uriOf(tag.abs),
        range: { start: { line: tag.line, character: start }, end: { line: tag.line, character: start + length } },
      });
    }
    const specFiles = new Set(project.specFiles());
    for (const doc of specDocs()) specFiles.add(absOf(doc.uri)!);
    for (const abs of specFiles) {
      for (const m of (await project.indexOf(abs)).mentions) if (m.id === id) out.push({ uri: uriOf(abs), range: rangeOf(m) });
    }
    // Comments from CSV files: located by the loader.
    for (const comment of model.commentsAbout.get(id) ?? []) {
      if (!comment.loc.file.toLowerCase().endsWith(".csv")) continue;
      const abs = model.specs.files.find(
        (f) => f.endsWith(path.sep + comment.loc.file) || f === path.resolve(project!.cwd, comment.loc.file),
      );
      if (abs)
        out.push({
          uri: uriOf(abs),
          range: rangeOf({
            line: comment.loc.line - 1,
            start: Math.max(0, comment.loc.column - 1),
            end: Math.max(0, comment.loc.column - 1),
          }),
        });
    }
    return out;
  });

  // --- completion ----------------------------------------------------------------------
  connection.onCompletion(async ({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    const abs = absOf(textDocument.uri);
    const model = project?.model;
    if (!doc || !abs || !model || !project) return null;
    const line = lineOf(doc, position.line);
    const text = doc.getText();
    if (isSpecText(abs, text)) {
      const prefix = line.slice(0, position.character);
      const field = idFieldAt((i) => lineOf(doc, i), position.line, prefix);
      if (!field) return null;
      const typed = /[A-Za-z0-9_-]*$/.exec(prefix)![0];
      const ids = matchingIds(model, typed, field === "ref" ? "requirements" : field === "prereq" ? "tests" : "both");
      const range = { start: { line: position.line, character: position.character - typed.length }, end: position };
      return { isIncomplete: ids.length >= MAX_COMPLETIONS, items: idItems(model, ids, range) };
    }
    const parsed = await trees.parse(textDocument.uri, abs, text);
    const found = await sourceCompletion(project, model, abs, text, doc.offsetAt(position), position, line, parsed);
    return found && { isIncomplete: found.incomplete, items: found.items };
  });

  // --- code lens and symbols -------------------------------------------------------------
  connection.onCodeLens(async ({ textDocument }) => {
    const doc = documents.get(textDocument.uri);
    const abs = absOf(textDocument.uri);
    const model = project?.model;
    if (!doc || !abs || !model || !project || !isSpecText(abs, doc.getText())) return [];
    const lenses: CodeLens[] = [];
    for (const d of (await project.indexOf(abs)).definitions) {
      if (d.kind !== "requirement" || model.byId.get(d.id)?.kind !== "requirement") continue;
      lenses.push({ range: rangeOf(d), command: { title: lensTitle(project, model, d.id), command: "" } });
    }
    return lenses;
  });

  // speky:speky-ts#LSP-SYMBOLS
  connection.onWorkspaceSymbol(async ({ query }) => {
    const model = project?.model;
    if (!model || !project) return [];
    const q = query.toLowerCase();
    const out: SymbolInformation[] = [];
    for (const { item, name, lower } of project.symbolNames()) {
      if (out.length >= MAX_SYMBOLS) break;
      if (q && !lower.includes(q)) continue;
      const { abs, spot } = await project.definitionOf(item);
      out.push({
        name,
        kind: item.kind === "requirement" ? SymbolKind.Constant : SymbolKind.Event,
        location: { uri: uriOf(abs), range: rangeOf(spot) },
        containerName: `${item.kind} · ${item.category}`,
      });
    }
    return out;
  });

  documents.listen(connection);
  connection.listen();
}

/** A file named by the model (for its lines): regular, not blocking, capped as spec files are. */
function readFileCapped(abs: string): string {
  const read = readRegularSync(abs, { maxBytes: MAX_FILE_BYTES });
  return isRefusal(read) ? "" : read.bytes.toString("utf8");
}
