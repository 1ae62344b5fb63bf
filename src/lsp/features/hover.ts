// Hover on an ID (a tag in code, an ID in a spec file): what the item says and how it is
// tested and referenced (src/lsp/describe.ts); an unknown ID with the closest known one.
import { describeItem, describeUnknown } from "../describe.js";
import type { Session } from "../session.js";
import { targetAt } from "../target.js";
import { verificationHover } from "../verification.js";
import type { Feature } from "./feature.js";

export const hover: Feature = {
  capabilities: { hoverProvider: true },
  bind(session: Session) {
    // speky:speky-ts#LSP-HOVER
    session.connection.onHover(async ({ textDocument, position }, token) => {
      await session.loaded("scan", token);
      const target = await targetAt(session, textDocument.uri, position, true);
      const { project } = session;
      const model = project?.model;
      if (!target || !model || !project) return null;
      const item = model.byId.get(target.id);
      const value = item ? describeItem(project, model, item) + verificationHover(model, target.id) : describeUnknown(model, target.id);
      return { contents: { kind: "markdown", value }, range: target.range };
    });
  },
};
