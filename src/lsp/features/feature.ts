// One feature of the language server: what it adds to the capabilities answered to
// `initialize`, and the handlers it binds (one method per request, as
// typescript-language-server does). A new feature is a module here and a row in server.ts.
import type { ServerCapabilities } from "vscode-languageserver";
import type { Session } from "../session.js";

export interface Feature {
  /** Merged, in the order of the features, into the `initialize` answer's capabilities. */
  readonly capabilities?: ServerCapabilities;
  /** Binds the feature's requests and notifications, and follows the session's events. */
  bind(session: Session): void;
}
