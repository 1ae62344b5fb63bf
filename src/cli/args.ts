// Command-line parsing for both binaries. Node's util.parseArgs splits the words (long and
// short forms, `--name=value`, grouped short flags, `--`); the checks here turn every misuse
// into one UsageError line (exit 2), with the user's text quoted and bounded.
import { parseArgs as splitArgs } from "node:util";
import { quote } from "../quote.js";

/** A misuse of the command line: printed as one line plus a pointer to --help, exit 2. */
export class UsageError extends Error {}

/** A failure that is not a bug (e.g. an output file that cannot be written): one line, exit 2. */
export class CommandError extends Error {}

export interface OptionSpec {
  /** Long name without dashes, e.g. "format". */
  name: string;
  /** One character, e.g. "C" for `-C`. */
  short?: string;
  /** Takes a value (`--format json`, `--format=json`); its placeholder in the help, e.g. "FILE". */
  value?: string;
  /** May be given several times; values collected in order. */
  repeat?: boolean;
  /** Allowed values, when the set is closed. */
  choices?: readonly string[];
  /** One line for the help text. */
  help: string;
}

export interface ParsedArgs {
  positionals: string[];
  /** How many positionals came before a `--`; undefined without one. */
  beforeTerminator?: number;
  /** Flags map to true; valued options to their last value, repeatable ones to a list. */
  options: Map<string, string | string[] | true>;
}

export const HELP_OPTION: OptionSpec = { name: "help", short: "h", help: "print this help and exit" };

// speky:speky-ts#INSTALL-CLI-PARSE
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const config: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const s of specs) config[s.name] = { type: s.value ? "string" : "boolean", ...(s.short ? { short: s.short } : {}) };
  // strict: false so that the errors below are ours (one line, input quoted), not Node's.
  const { tokens } = splitArgs({ args: [...argv], options: config, strict: false, allowPositionals: true, tokens: true });
  const byName = new Map(specs.map((s) => [s.name, s]));
  const positionals: string[] = [];
  const options = new Map<string, string | string[] | true>();
  let beforeTerminator: number | undefined;
  for (const token of tokens) {
    if (token.kind === "option-terminator") beforeTerminator = positionals.length;
    if (token.kind === "positional") positionals.push(token.value);
    if (token.kind !== "option") continue;
    const spec = byName.get(token.name);
    if (!spec) throw new UsageError(`unknown option ${quote(token.rawName)}`);
    const shown = token.rawName;
    if (!spec.value) {
      if (token.value !== undefined) throw new UsageError(`option '${shown}' takes no value`);
      options.set(spec.name, true);
      continue;
    }
    const value = token.value;
    if (value === undefined) throw new UsageError(`option '${shown}' needs a value`);
    if (spec.choices && !spec.choices.includes(value)) {
      throw new UsageError(`option '${shown}' must be one of ${spec.choices.join(", ")}, not ${quote(value)}`);
    }
    if (spec.repeat) {
      const list = options.get(spec.name);
      options.set(spec.name, Array.isArray(list) ? [...list, value] : [value]);
    } else {
      options.set(spec.name, value);
    }
  }
  return beforeTerminator === undefined ? { positionals, options } : { positionals, beforeTerminator, options };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name);
  return typeof v === "string" ? v : undefined;
}

export function listOption(args: ParsedArgs, name: string): string[] {
  const v = args.options.get(name);
  return Array.isArray(v) ? v : [];
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.options.get(name) === true;
}

/** The options part of a help text: one aligned line per option. */
export function formatOptions(specs: readonly OptionSpec[]): string {
  const heads = specs.map((s) => {
    const long = `--${s.name}${s.value ? ` ${s.choices ? s.choices.join("|") : s.value}` : ""}`;
    return s.short ? `-${s.short}, ${long}` : `    ${long}`;
  });
  const width = Math.max(...heads.map((h) => h.length));
  return specs.map((s, i) => `  ${heads[i].padEnd(width)}  ${s.help}${s.repeat ? " (repeatable)" : ""}\n`).join("");
}
