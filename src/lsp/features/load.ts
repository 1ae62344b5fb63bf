// The project's life: found and loaded after `initialized` (in the background: initialize
// never waits for it), tried again after a save when it never loaded, closed at shutdown.

import path from "node:path";
import { statThrough } from "../../fs/paths.js";
import { discoverManifests } from "../../loader/discover.js";
import { DEFAULT_MANIFEST, manifestAbove } from "../../loader/manifest-above.js";
import { plural } from "../../quote.js";
import { Project } from "../project.js";
import type { Session } from "../session.js";
import type { Feature } from "./feature.js";
import { LoadProgress } from "./load-progress.js";

// speky:speky-ts#CLI-MANIFEST-ABOVE
/**
 * A folder without its own speky.yaml inside a project (a sub-folder opened in the editor) stands
 * for the nearest speky.yaml above it in its git work tree, as on the command line; the other
 * folders for the top-level manifests found in them.
 */
async function workspaceManifests(folders: readonly string[]): Promise<string[]> {
  const above = new Set<string>();
  const searched: string[] = [];
  for (const folder of folders) {
    const found = statThrough(path.join(folder, DEFAULT_MANIFEST))?.isFile() ? null : manifestAbove(folder);
    if (found === null) searched.push(folder);
    else above.add(found);
  }
  const below = searched.length > 0 ? await discoverManifests(searched) : [];
  return [...new Set([...above, ...below])];
}

// speky:speky-ts#LSP-DISCOVER
async function open(session: Session, progress: LoadProgress): Promise<void> {
  const { connection, folders, options } = session;
  const cwd = folders[0] ?? process.cwd();
  const paths =
    options.manifests.length > 0
      ? options.manifests
      : session.initManifests.length > 0
        ? session.initManifests
        : await workspaceManifests(folders.length > 0 ? folders : [cwd]);
  const project = new Project(paths, cwd, session.openText, options.watch ?? true, options.results ?? []);
  session.project = project;
  project.on("changed", () => {
    session.state = "ready";
    const model = project.model!;
    connection.console.info(
      `speky: ${model.requirementIds.length} requirements, ${model.testIds.length} tests, ${model.codeReferences.length} code references`,
    );
    session.sendStatus();
    session.emit("changed");
    progress.specsLoaded(model, project.scanProgress);
    session.firstLoadDone();
  });
  project.on("rejected", (problems) => {
    const failed = `the specification does not load (${plural(problems.filter((p) => p.severity === "error").length, "error")})`;
    if (!project.model) {
      session.state = "failed";
      progress.end(failed);
    }
    connection.console.warn(`speky: ${failed}`);
    session.sendStatus();
    session.emit("rejected");
    session.firstLoadDone();
  });
  project.on("indexed", () => session.sendStatus());
  project.on("warning", (message) => connection.console.warn(`speky: ${message}`));
  if (paths.length === 0) {
    session.state = "no-manifest";
    connection.console.warn("speky: no manifest (kind: project) found in the workspace");
    session.sendStatus();
    progress.end("no manifest (kind: project) found in the workspace");
    session.firstLoadDone();
    return;
  }
  session.sendStatus();
  await project.open();
}

export const load: Feature = {
  bind(session) {
    const { connection, documents } = session;
    connection.onInitialized(() => {
      const progress = new LoadProgress(connection, session.capabilities.window?.workDoneProgress === true);
      open(session, progress).catch((error: unknown) => {
        connection.console.error(`speky: cannot load: ${error instanceof Error ? error.stack : String(error)}`);
        progress.end("cannot load: see the server's log");
        session.firstLoadDone();
      });
    });
    connection.onShutdown(() => {
      session.project?.close();
      session.emit("shutdown");
    });
    documents.onDidSave(() => session.project?.retry());
  },
};
