// The language server: a session (the documents as the editor holds them, the project's live
// model) and one module per feature in src/lsp/features/, each binding its own requests.
// Adding a feature is a module there and a row in FEATURES. A connection takes one handler
// per request: more to say in a hover is a line of describeItem (describe.ts), another lens
// an entry of the lenses features/code-lens.ts returns. A feature that needs the model
// awaits session.loaded() first (what an editor asks at start-up comes before the load).
import type { Connection, InitializeResult, ServerCapabilities } from "vscode-languageserver";
import { VERSION } from "../version.js";
import { codeLens } from "./features/code-lens.js";
import { completion } from "./features/completion.js";
import { definition } from "./features/definition.js";
import { diagnostics } from "./features/diagnostics.js";
import type { Feature } from "./features/feature.js";
import { hover } from "./features/hover.js";
import { load } from "./features/load.js";
import { references } from "./features/references.js";
import { workspaceSymbols } from "./features/workspace-symbols.js";
import { type ServerOptions, Session } from "./session.js";

/** In this order: the capabilities are merged, and the model's events reach the features. */
const FEATURES: readonly Feature[] = [load, diagnostics, hover, definition, references, completion, codeLens, workspaceSymbols];

export function startServer(connection: Connection, options: ServerOptions): void {
  const session = new Session(connection, options);
  const capabilities: ServerCapabilities = Object.assign({}, ...FEATURES.map((f) => f.capabilities ?? {}));
  connection.onInitialize((params): InitializeResult => {
    session.configure(params);
    return { capabilities, serverInfo: { name: "speky", version: VERSION } };
  });
  for (const feature of FEATURES) feature.bind(session);
  session.documents.listen(connection);
  connection.listen();
}
