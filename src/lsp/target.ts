// What is under the cursor: an ID in a spec file (a definition or a mention in ref, prereq or
// about), or a code tag of a loaded project in a source buffer.
import type { Position, Range } from "vscode-languageserver";
import { absOf, lineOf, rangeOf } from "./locations.js";
import type { Session } from "./session.js";
import { tagAt } from "./source.js";
import { isSpecText } from "./spec.js";
import { spotAt } from "./spec-index.js";

export interface Target {
  id: string;
  range: Range;
}

/** The ID at `position`; `inSpecDefinitions`: an `id:` of a spec file counts too. */
export async function targetAt(session: Session, uri: string, position: Position, inSpecDefinitions: boolean): Promise<Target | null> {
  const doc = session.documents.get(uri);
  const abs = absOf(uri);
  const project = session.project;
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
