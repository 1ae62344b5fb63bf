// Find references of an ID: its definition (when asked), the code tags (open buffers' tags in
// place of what the scan found in them), the mentions in spec files, and CSV comments.
import path from "node:path";
import type { Location } from "vscode-languageserver";
import { isRefusal, readRegularSync } from "../../fs/safe-read.js";
import { MAX_FILE_BYTES } from "../../loader/files.js";
import { absOf, rangeOf, uriOf } from "../locations.js";
import type { Session } from "../session.js";
import { targetAt } from "../target.js";
import { splitLines, utf16Column } from "../text.js";
import type { Feature } from "./feature.js";

/** A file named by the model (for its lines): regular, not blocking, capped as spec files are. */
function readFileCapped(abs: string): string {
  const read = readRegularSync(abs, { maxBytes: MAX_FILE_BYTES });
  return isRefusal(read) ? "" : read.bytes.toString("utf8");
}

/** Converts scanner columns (code points) with the file's text, read once per file. */
function lineReader(session: Session): (abs: string, line: number) => string {
  const cache = new Map<string, string[]>();
  return (abs, line) => {
    let lines = cache.get(abs);
    if (!lines) {
      let text = session.openText(abs)?.text;
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

export const references: Feature = {
  capabilities: { referencesProvider: true },
  bind(session: Session) {
    // speky:speky-ts#LSP-REFERENCES
    session.connection.onReferences(async ({ textDocument, position, context }, token) => {
      await session.loaded("scan", token);
      const target = await targetAt(session, textDocument.uri, position, true);
      const { project } = session;
      const model = project?.model;
      if (!target || !model || !project) return [];
      const id = target.id;
      const out: Location[] = [];
      const item = model.byId.get(id);
      if (item && context.includeDeclaration) {
        const { abs, spot } = await project.definitionOf(item);
        out.push({ uri: uriOf(abs), range: rangeOf(spot) });
      }
      const read = lineReader(session);
      for (const tag of project.tagsOf(id)) {
        const start = utf16Column(read(tag.abs, tag.line), tag.column);
        const length = `speky:${tag.project}#${tag.id}`.length;
        out.push({
          uri: uriOf(tag.abs),
          range: { start: { line: tag.line, character: start }, end: { line: tag.line, character: start + length } },
        });
      }
      const specFiles = new Set(project.specFiles());
      for (const doc of session.specDocs()) specFiles.add(absOf(doc.uri)!);
      for (const abs of specFiles) {
        for (const m of (await project.indexOf(abs)).mentions) if (m.id === id) out.push({ uri: uriOf(abs), range: rangeOf(m) });
      }
      // Comments from CSV files: located by the loader.
      for (const comment of model.commentsAbout.get(id) ?? []) {
        if (!comment.loc.file.toLowerCase().endsWith(".csv")) continue;
        const abs = model.specs.files.find(
          (f) => f.endsWith(path.sep + comment.loc.file) || f === path.resolve(project.cwd, comment.loc.file),
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
  },
};
