// Completion: IDs in ref, prereq and about of spec buffers; project names and IDs of
// `speky:<project>#<ID>` tags in comments of source buffers.
import { absOf, lineOf } from "../locations.js";
import type { Session } from "../session.js";
import { idItems, MAX_COMPLETIONS, matchingIds, sourceCompletion } from "../source.js";
import { idFieldAt, isSpecText } from "../spec.js";
import type { Feature } from "./feature.js";

export const completion: Feature = {
  capabilities: { completionProvider: { triggerCharacters: [":", "#", "-", " ", "[", ",", '"', "'"] } },
  bind(session: Session) {
    // speky:speky-ts#LSP-COMPLETION
    session.connection.onCompletion(async ({ textDocument, position }, token) => {
      await session.loaded("specs", token);
      const doc = session.documents.get(textDocument.uri);
      const abs = absOf(textDocument.uri);
      const { project } = session;
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
      const parsed = await session.trees.parse(textDocument.uri, abs, text);
      const found = await sourceCompletion(project, model, abs, text, doc.offsetAt(position), position, line, parsed);
      return found && { isIncomplete: found.incomplete, items: found.items };
    });
  },
};
