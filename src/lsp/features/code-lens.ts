// A code lens above each requirement of a spec file: its tests (how many automated) and its
// code references; refreshed when the model changes, for clients that support it.
import type { CodeLens } from "vscode-languageserver";
import { lensTitle } from "../describe.js";
import { absOf, rangeOf } from "../locations.js";
import type { Session } from "../session.js";
import { isSpecText } from "../spec.js";
import { testLensTitle } from "../verification.js";
import type { Feature } from "./feature.js";

export const codeLens: Feature = {
  capabilities: { codeLensProvider: { resolveProvider: false } },
  bind(session: Session) {
    const { connection } = session;
    session.on("changed", () => {
      if (session.capabilities.workspace?.codeLens?.refreshSupport === true)
        void connection.sendRequest("workspace/codeLens/refresh").catch(() => undefined);
    });
    // speky:speky-ts#LSP-LENS
    connection.onCodeLens(async ({ textDocument }, token) => {
      await session.loaded("scan", token);
      const doc = session.documents.get(textDocument.uri);
      const abs = absOf(textDocument.uri);
      const { project } = session;
      const model = project?.model;
      if (!doc || !abs || !model || !project || !isSpecText(abs, doc.getText())) return [];
      const lenses: CodeLens[] = [];
      for (const d of (await project.indexOf(abs)).definitions) {
        const lastRun = d.kind === "test" ? testLensTitle(model, d.id) : null;
        if (lastRun !== null) lenses.push({ range: rangeOf(d), command: { title: lastRun, command: "" } });
        if (d.kind !== "requirement" || model.byId.get(d.id)?.kind !== "requirement") continue;
        lenses.push({ range: rangeOf(d), command: { title: lensTitle(project, model, d.id), command: "" } });
      }
      return lenses;
    });
  },
};
