import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Io } from "./io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O }>>["values"];
type Parsed<O extends Options> = { values: Values<O>; positionals: string[] };

// On a usage error prints it with the usage text (exit 2), on `--help` prints the usage (exit 0).
function parse<O extends Options>(args: string[], options: O, usage: string, io: Io, strict: boolean, allowPositionals: boolean): Parsed<O> | number {
  try {
    const { values, positionals } = parseArgs({ args, options: { ...options, help: { type: "boolean", short: "h" } }, strict, allowPositionals }) as { values: Record<string, unknown>; positionals: string[] };
    if (values.help) {
      io.stdout.write(`${usage}\n`);
      return 0;
    }
    return { values: values as Values<O>, positionals };
  } catch (e) {
    io.stderr.write(`${(e as Error).message}\n\n${usage}\n`);
    return 2;
  }
}

/** Parses a command's flags (positionals are an error when `strict`). Returns the values, or the exit code to return. */
export function parseCommandArgs<O extends Options>(args: string[], options: O, usage: string, io: Io, strict = true): Values<O> | number {
  const parsed = parse(args, options, usage, io, strict, !strict);
  return typeof parsed === "number" ? parsed : parsed.values;
}

/** Parses strict flags plus positionals. Returns them, or the exit code to return. */
export function parseCommandLine<O extends Options>(args: string[], options: O, usage: string, io: Io): Parsed<O> | number {
  return parse(args, options, usage, io, true, true);
}
