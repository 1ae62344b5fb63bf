// Diagnostics as the user types: an unsaved source buffer is scanned (dangling, malformed and
// misplaced tags), an unsaved spec buffer is checked by the loader; both after a short quiet
// time, again whenever the model changes, and cleared when the buffer closes.
import path from "node:path";
import { TextDocumentSyncKind } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { absOf } from "../locations.js";
import type { Session } from "../session.js";
import { sourceDiagnostics } from "../source.js";
import { fileDiagnostics, isSpecText, specDiagnostics, toLsp } from "../spec.js";
import type { Feature } from "./feature.js";

/** Quiet time after a keystroke before the buffer is diagnosed. */
const SOURCE_DEBOUNCE_MS = 50;
const SPEC_DEBOUNCE_MS = 80;

// speky:speky-ts#LSP-SOURCE-DIAGNOSTICS
async function diagnoseSource(session: Session, doc: TextDocument): Promise<void> {
  const abs = absOf(doc.uri);
  const { project } = session;
  const model = project?.model;
  if (!abs || !project || !model) return;
  const { version } = doc;
  const text = doc.getText();
  const { diagnostics, tags } = await sourceDiagnostics(project, model, abs, text, await session.trees.parse(doc.uri, abs, text));
  if (session.documents.get(doc.uri)?.version !== version) return;
  project.setOverlay(abs, tags);
  void session.connection.sendDiagnostics({ uri: doc.uri, version, diagnostics });
}

class SpecDiagnostics {
  /** Whole loads (manifests, comments files, a first load that failed) run one at a time. */
  private wholeLoads: Promise<void> = Promise.resolve();

  constructor(private readonly session: Session) {}

  // speky:speky-ts#LSP-SPEC-DIAGNOSTICS
  async diagnose(doc: TextDocument): Promise<void> {
    const { session } = this;
    const { connection, documents } = session;
    const abs = absOf(doc.uri);
    const project = session.project;
    if (!abs || !project || project.paths.length === 0) return;
    const { version } = doc;
    const text = doc.getText();
    const fast = await fileDiagnostics(project, abs, text);
    if (fast) {
      if (documents.get(doc.uri)?.version === version)
        void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics: fast.map((d) => toLsp(d, text)) });
      return;
    }
    this.wholeLoads = this.wholeLoads.then(async () => {
      const project = session.project;
      if (!project || documents.get(doc.uri)?.version !== version) return;
      const overlay = new Map(session.specDocs().map((d) => [absOf(d.uri)!, d.getText()]));
      const roots = [...(project.model?.manifests.map((m) => m.root) ?? []), ...project.paths.map((p) => path.dirname(p)), project.cwd];
      const found = await specDiagnostics(project.paths, project.cwd, overlay, roots);
      if (documents.get(doc.uri)?.version === version)
        void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics: found.get(abs) ?? [] });
    });
    return this.wholeLoads;
  }
}

export const diagnostics: Feature = {
  capabilities: {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
  },
  bind(session) {
    const { connection, documents } = session;
    const timers = new Map<string, NodeJS.Timeout>();
    const spec = new SpecDiagnostics(session);
    const schedule = (doc: TextDocument) => {
      const abs = absOf(doc.uri);
      if (!abs) return;
      const isSpec = isSpecText(abs, doc.getText());
      clearTimeout(timers.get(doc.uri));
      timers.set(
        doc.uri,
        setTimeout(
          () => {
            timers.delete(doc.uri);
            const run = isSpec ? spec.diagnose(doc) : diagnoseSource(session, doc);
            run.catch((error: unknown) => connection.console.error(`speky: diagnostics failed: ${String(error)}`));
          },
          isSpec ? SPEC_DEBOUNCE_MS : SOURCE_DEBOUNCE_MS,
        ),
      );
    };
    const rediagnoseAll = () => {
      for (const doc of documents.all()) schedule(doc);
    };
    session.on("changed", rediagnoseAll);
    session.on("rejected", rediagnoseAll);
    session.on("shutdown", () => {
      for (const t of timers.values()) clearTimeout(t);
    });
    documents.onDidChangeContent(({ document }) => schedule(document));
    documents.onDidClose(({ document }) => {
      const abs = absOf(document.uri);
      if (abs) session.project?.dropOverlay(abs);
      session.trees.close(document.uri);
      clearTimeout(timers.get(document.uri));
      void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
    });
  },
};
