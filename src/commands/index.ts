// The registry of `speky` subcommands: a new subcommand is one entry here. Each is loaded when
// it runs (or for --help): a command does not load the others' modules.
import type { Command } from "../cli/command.js";

export interface CommandEntry {
  name: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: "check", load: async () => (await import("./check.js")).checkCommand },
  { name: "scan", load: async () => (await import("./scan.js")).scanCommand },
  { name: "report", load: async () => (await import("./report.js")).reportCommand },
  { name: "lsp", load: async () => (await import("./lsp.js")).lspCommand },
  { name: "export", load: async () => (await import("./export.js")).exportCommand },
  { name: "diff", load: async () => (await import("./diff.js")).diffCommand },
];

/** Every command, in registry order (--help). */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMANDS.map((entry) => entry.load()));
}
