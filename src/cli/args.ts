import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Io } from "./io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O }>>["values"];

/**
 * Parses a command's flags; on a usage error prints it with the usage text (exit 2), on `--help`
 * prints the usage (exit 0). Returns the values, or the exit code to return.
 */
export function parseCommandArgs<O extends Options>(args: string[], options: O, usage: string, io: Io, strict = true): Values<O> | number {
  try {
    const { values } = parseArgs({ args, options: { ...options, help: { type: "boolean", short: "h" } }, strict, allowPositionals: !strict }) as { values: Record<string, unknown> };
    if (values.help) {
      io.stdout.write(`${usage}\n`);
      return 0;
    }
    return values as Values<O>;
  } catch (e) {
    io.stderr.write(`${(e as Error).message}\n\n${usage}\n`);
    return 2;
  }
}
