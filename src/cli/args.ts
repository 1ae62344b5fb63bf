// A small declarative argument parser: both binaries take the same shapes (positionals,
// repeatable valued options, flags), and usage errors must exit 2 with one clear line.
export class UsageError extends Error {}

export interface OptionSpec {
  /** Long name without dashes, e.g. "format". */
  name: string;
  short?: string;
  /** Takes a value (`--format json`, `--format=json`). */
  value?: boolean;
  /** May be given several times; values collected in order. */
  repeat?: boolean;
  /** Allowed values, when the set is closed. */
  choices?: readonly string[];
}

export interface ParsedArgs {
  positionals: string[];
  /** Flags map to true; valued options to their last value, repeatable ones to a list. */
  options: Map<string, string | string[] | true>;
}

export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string | string[] | true>();
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (onlyPositionals || arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyPositionals = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const key = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = key.startsWith("--") ? byLong.get(key.slice(2)) : byShort.get(key.slice(1));
    if (!spec) throw new UsageError(`unknown option '${key}'`);
    if (!spec.value) {
      if (eq > 0) throw new UsageError(`option '${key}' takes no value`);
      options.set(spec.name, true);
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    if (value === undefined) throw new UsageError(`option '${key}' needs a value`);
    if (spec.choices && !spec.choices.includes(value)) {
      throw new UsageError(`option '${key}' must be one of ${spec.choices.join(", ")}, not '${value}'`);
    }
    if (spec.repeat) {
      const list = options.get(spec.name);
      options.set(spec.name, Array.isArray(list) ? [...list, value] : [value]);
    } else {
      options.set(spec.name, value);
    }
  }
  return { positionals, options };
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
