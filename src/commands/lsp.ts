// `speky lsp`: the language server over stdio. `--stdio` is what VS Code's client passes;
// stdio is the only transport, so it is accepted and ignored.
import path from "node:path";
import { flag, listOption } from "../cli/args.js";
import { type Command, RESULTS_OPTION } from "../cli/command.js";

// speky:speky-ts#LSP-SERVER
export const lspCommand: Command = {
  name: "lsp",
  summary: "serve the specs to an editor (Language Server Protocol over stdio)",
  usage: ["[MANIFEST...] [--stdio] [--no-watch] [--results GLOB]..."],
  description: `Hover, go to definition, diagnostics as you type, completion of IDs, references,
code lenses and workspace symbols, for code tags and spec files alike.
Without MANIFEST: the client's initializationOptions.manifests, else the top-level
manifests (kind: project) found in the workspace folders. The specs are loaded and the
code scanned after initialize, in the background (work-done progress for clients that
support it); requests sent meanwhile wait for what they need, up to 10 s
($SPEKY_LSP_WAIT_MS); the files are then watched. With JUnit XML test results (--results,
or the manifests' test_results), a hover on a tag tells the last run's result and a code
lens above each test plan its status.`,
  options: [
    { name: "stdio", help: "accepted and ignored: stdio is the transport" },
    { name: "no-watch", help: "serve the model loaded at start-up" },
    RESULTS_OPTION,
  ],
  async run(args, context) {
    // The editor's server keeps V8's optimising wasm tier: it parses on its own thread at each
    // keystroke for as long as the editor runs (speky-mcp doesn't: src/commands/mcp.ts).
    process.env.SPEKY_WASM_TIERUP ??= "1";
    const manifests = args.positionals.map((p) => path.resolve(context.cwd, p));
    // Loaded here, not at the top: every `speky` command imports this registry entry, and the
    // language server's modules would cost `scan` and `check` their start-up time.
    const { createConnection, StreamMessageReader, StreamMessageWriter } = await import("vscode-languageserver/node");
    const { startServer } = await import("../lsp/server.js");
    const connection = createConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
    // Relative to the folder `speky lsp` starts in, as the manifests given here.
    const results = listOption(args, "results").map((glob) => path.resolve(context.cwd, glob));
    startServer(connection, { manifests, watch: !flag(args, "no-watch"), results });
    // The library ends the process on the `exit` notification; a closed stdin ends it too.
    await new Promise<void>((resolve) => {
      process.stdin.on("end", resolve);
      process.stdin.on("close", resolve);
    });
    return 0;
  },
};
