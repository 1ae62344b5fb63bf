// The project's life: found and loaded after `initialized` (in the background: initialize
// never waits for it), tried again after a save when it never loaded, closed at shutdown.
import { discoverManifests } from "../discover.js";
import { Project } from "../project.js";
import type { Session } from "../session.js";
import type { Feature } from "./feature.js";

// speky:speky-ts#LSP-DISCOVER
async function open(session: Session): Promise<void> {
  const { connection, folders, options } = session;
  const cwd = folders[0] ?? process.cwd();
  const paths =
    options.manifests.length > 0
      ? options.manifests
      : session.initManifests.length > 0
        ? session.initManifests
        : await discoverManifests(folders.length > 0 ? folders : [cwd]);
  const project = new Project(paths, cwd, session.openText, options.watch ?? true);
  session.project = project;
  project.on("changed", () => {
    session.state = "ready";
    const model = project.model!;
    connection.console.info(
      `speky: ${model.requirementIds.length} requirements, ${model.testIds.length} tests, ${model.codeReferences.length} code references`,
    );
    session.sendStatus();
    session.emit("changed");
  });
  project.on("rejected", (problems) => {
    if (!project.model) session.state = "failed";
    connection.console.warn(`speky: the specification does not load (${problems.filter((p) => p.severity === "error").length} errors)`);
    session.sendStatus();
    session.emit("rejected");
  });
  project.on("indexed", () => session.sendStatus());
  project.on("warning", (message) => connection.console.warn(`speky: ${message}`));
  if (paths.length === 0) {
    session.state = "no-manifest";
    connection.console.warn("speky: no manifest (kind: project) found in the workspace");
    session.sendStatus();
    return;
  }
  session.sendStatus();
  await project.open();
}

export const load: Feature = {
  bind(session) {
    const { connection, documents } = session;
    connection.onInitialized(() => {
      open(session).catch((error: unknown) =>
        connection.console.error(`speky: cannot load: ${error instanceof Error ? error.stack : String(error)}`),
      );
    });
    connection.onShutdown(() => {
      session.project?.close();
      session.emit("shutdown");
    });
    documents.onDidSave(() => session.project?.retry());
  },
};
