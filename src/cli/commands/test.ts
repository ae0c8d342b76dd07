import type { Io } from "../io.js";

/** `rye test`: runs the prompt tests of `.ai/tests/`. */
export async function run(_args: string[], io: Io): Promise<number> {
  io.stderr.write("rye test: not available in this build.\n");
  return 2;
}
