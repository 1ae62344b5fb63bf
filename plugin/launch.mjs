#!/usr/bin/env node
// The plugin's launcher: `node plugin/launch.mjs COMMAND [ARGS...]`, what .claude-plugin/plugin.json
// starts. It makes sure the plugin's own copy of speky-ts is built (worker.mjs, copy.mjs), then
// runs speky-mcp, `speky lsp` or `speky` from it with stdin and stdout handed over as they are:
// stdout is the client's channel, and nothing here ever writes to it. At a session's start it
// puts `speky` on the PATH of the session's shell commands and starts the build if needed.
import { spawn } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { copyKey, doneMark, InstallError } from "./copy.mjs";
import { ensureCopy, installWorker, lockHeld, say, startWorker } from "./worker.mjs";

const USAGE = `usage: node plugin/launch.mjs mcp|lsp|speky|install|session-start [ARGS...]
  mcp            speky-mcp on ARGS, default: the project's $SPEKY_MANIFEST, else speky.yaml
  lsp            speky lsp (manifests found in the workspace)
  speky          the speky command line, in the working folder
  install        build the plugin's copy of speky-ts now (it is built on first use otherwise)
  session-start  put speky on the PATH of the session's shell ($CLAUDE_ENV_FILE), start the build if needed
The copy is built into $CLAUDE_PLUGIN_DATA/copies; the project is $CLAUDE_PROJECT_DIR, else the working folder.`;

const COMMANDS = ["mcp", "lsp", "speky", "install", "session-start"];

/** Runs `args` on this Node with our stdio, forwarding the signals that stop us; resolves to its exit code. */
function run(args, cwd) {
  const child = spawn(process.execPath, args, { cwd, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    child.once("error", (error) => {
      say(error.message);
      resolve(1);
    });
    child.once("exit", (code, signal) => resolve(code ?? 128 + (os.constants.signals[signal] ?? 0)));
  });
}

/** `'text'` for sh, whatever the text holds. */
const shQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

// speky:speky-ts#PLUGIN-SESSION-PATH
/**
 * The SessionStart hook: `${DATA}/bin/speky` (a shim running `launch.mjs speky` on this Node,
 * from this plugin folder) and, when Claude Code names an environment file, an export line
 * putting that folder first on the PATH of the session's shell commands; then the build started
 * in the background when the copy is missing. Quick, and silent on stdout (a hook's stdout is
 * shown to the model); a failure here never fails the session.
 */
function sessionStart(root, data) {
  const bin = path.join(data, "bin");
  mkdirSync(bin, { recursive: true });
  const launcher = fileURLToPath(import.meta.url);
  const variables = `CLAUDE_PLUGIN_ROOT=${shQuote(root)} CLAUDE_PLUGIN_DATA=${shQuote(data)}`;
  const shim = path.join(bin, "speky");
  writeFileSync(
    shim,
    `#!/bin/sh\n# The speky-ts plugin's speky, written at each session's start.\n${variables} exec ${shQuote(process.execPath)} ${shQuote(launcher)} speky "$@"\n`,
  );
  chmodSync(shim, 0o755);
  const envFile = process.env.CLAUDE_ENV_FILE;
  if (envFile && process.platform !== "win32") appendFileSync(envFile, `export PATH=${shQuote(bin)}:"$PATH"\n`);
  const key = copyKey(root);
  if (!existsSync(doneMark(data, key)) && !lockHeld(data)) startWorker(root, data, key);
  return 0;
}

async function main(argv) {
  if (argv[0] === "--install-worker") return installWorker(argv[1], argv[2], argv[3]);
  const [command, ...args] = argv;
  if (!COMMANDS.includes(command)) {
    console.error(USAGE);
    return 2;
  }
  if (Number(process.versions.node.split(".")[0]) < 20) {
    say(`speky-ts needs Node 20 or later; this is Node ${process.versions.node}`);
    return 1;
  }
  const root = path.resolve(process.env.CLAUDE_PLUGIN_ROOT || path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
  const data = process.env.CLAUDE_PLUGIN_DATA ? path.resolve(process.env.CLAUDE_PLUGIN_DATA) : "";
  if (!data) {
    say("CLAUDE_PLUGIN_DATA is not set: the folder to build speky-ts into (Claude Code sets it for a plugin's servers and hooks)");
    return 2;
  }
  if (command === "session-start") {
    try {
      return sessionStart(root, data);
    } catch (error) {
      say(`session start: ${error instanceof InstallError ? error.message : (error?.stack ?? String(error))}`);
      return 0;
    }
  }
  const project = path.resolve(process.env.CLAUDE_PROJECT_DIR || process.cwd());
  let serverArgs = args;
  if (command === "mcp" && args.length === 0) {
    const manifest = process.env.SPEKY_MANIFEST || "speky.yaml";
    if (!existsSync(path.resolve(project, manifest))) {
      say(
        `no ${manifest} in ${project}: speky-mcp serves a project's manifest (the start-specification skill writes one; SPEKY_MANIFEST names another)`,
      );
      return 1;
    }
    serverArgs = [manifest];
  }
  let copy;
  try {
    copy = await ensureCopy(root, data);
  } catch (error) {
    say(error instanceof InstallError ? error.message : (error?.stack ?? String(error)));
    return 1;
  }
  switch (command) {
    case "install":
      say(`speky-ts is built in ${copy}`);
      return 0;
    case "mcp":
      return run([path.join(copy, "bin/speky-mcp.js"), ...serverArgs], project);
    case "lsp":
      return run([path.join(copy, "bin/speky.js"), "lsp", ...serverArgs], project);
    default:
      // The shell's own folder: `speky check` reads paths relative to where it is typed.
      return run([path.join(copy, "bin/speky.js"), ...args], process.cwd());
  }
}

process.exitCode = await main(process.argv.slice(2));
