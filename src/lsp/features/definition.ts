// Go to definition: from a tag or a mention to the `id` of the requirement or test, at its column.
import { rangeOf, uriOf } from "../locations.js";
import type { Session } from "../session.js";
import { targetAt } from "../target.js";
import type { Feature } from "./feature.js";

export const definition: Feature = {
  capabilities: { definitionProvider: true },
  bind(session: Session) {
    // speky:speky-ts#LSP-DEFINITION
    session.connection.onDefinition(async ({ textDocument, position }, token) => {
      await session.loaded("specs", token);
      const target = await targetAt(session, textDocument.uri, position, false);
      const { project } = session;
      const item = target && project?.model?.byId.get(target.id);
      if (!item || !project) return null;
      const { abs, spot } = await project.definitionOf(item);
      return { uri: uriOf(abs), range: rangeOf(spot) };
    });
  },
};
