// Workspace symbols: every requirement and test, by ID and short title, at its `id`.
import { type SymbolInformation, SymbolKind } from "vscode-languageserver";
import { rangeOf, uriOf } from "../locations.js";
import type { Session } from "../session.js";
import type { Feature } from "./feature.js";

const MAX_SYMBOLS = 500;

export const workspaceSymbols: Feature = {
  capabilities: { workspaceSymbolProvider: true },
  bind(session: Session) {
    // speky:speky-ts#LSP-SYMBOLS
    session.connection.onWorkspaceSymbol(async ({ query }, token) => {
      await session.loaded("specs", token);
      const { project } = session;
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
  },
};
