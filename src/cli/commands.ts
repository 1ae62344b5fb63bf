// The registry of `speky` subcommands: a new subcommand is one entry here.
import { checkCommand } from "./check.js";
import type { Command } from "./command.js";
import { scanCommand } from "./scan-command.js";
import { reportCommand } from "../report/cli.js";
import { lspCommand } from "../lsp/main.js";

export const COMMANDS: readonly Command[] = [checkCommand, scanCommand, reportCommand, lspCommand];
