import { resolve } from "node:path";
import { initProject } from "../../init/init-project.js";
import { moduleNote } from "../../init/module-note.js";
import { parseCommandLine } from "../args.js";
import type { Io } from "../io.js";

const USAGE = `Usage: rye init [DIR]

Creates a small working project in DIR (default: the current directory): .ai/ with a directive, a
knowledge item and a Python tool with its runtime, prompt tests of the directive (rye test),
rye.config.json, and .gitignore lines for the build output and cache. Existing files are never overwritten; they are listed as skipped.`;

/** `rye init`: scaffold a project, then say what was created and what was left alone. */
export async function run(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandLine(args, {}, USAGE, io);
  if (typeof parsed === "number") return parsed;
  const { positionals } = parsed;
  if (positionals.length > 1) {
    io.stderr.write(`rye init takes at most one folder.\n\n${USAGE}\n`);
    return 2;
  }
  const root = resolve(io.cwd, positionals[0] ?? ".");
  const { created, skipped, ignored } = initProject(root);
  for (const path of created) io.stdout.write(`created  ${path}\n`);
  for (const path of skipped) io.stdout.write(`skipped  ${path} (exists)\n`);
  if (ignored.length > 0) io.stdout.write(`ignored  ${ignored.join(", ")} (added to .gitignore)\n`);
  io.stdout.write(
    created.length > 0
      ? `Initialised a rye project in ${root}. Next: npx rye-build build\n`
      : `Nothing to do: every file of the template already exists in ${root}.\n`,
  );
  if (created.length > 0) for (const line of moduleNote(root, process.versions.node)) io.stdout.write(`${line}\n`);
  return 0;
}
