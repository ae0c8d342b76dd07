import { resolve } from "node:path";
import { parseCommandLine } from "../args.js";
import type { Io } from "../io.js";
import { findSignTargets, shown, signFile, signingTime } from "../../builder/sign-sources.js";
import { signingKey } from "../../builder/signing.js";
import { signingKeyDir } from "../../sign/keys.js";
import type { ItemKind } from "../../sign/signature-line.js";
import { machineKeyRefusal } from "../../sign/machine-key-state.js";

const USAGE = `Usage: rye sign [paths… | kind:id…] [--project DIR] [--kind KIND] [--json]

Signs Rye source items in place with this machine's key, in the original's format for each kind
(<!-- rye:signed:… --> for directives and knowledge, # or // for tools and config), replacing any
signature line they carry. Default: every directive, knowledge item and tool of the project
(DIR, default: the current directory). A path may be a file (--kind overrides the kind its place
under .ai/ gives), a folder (the items under its .ai/ folders) or a reference such as
tool:demo/run or directive:examples/greet, looked up in the project. An item already signed by
this key over its current content is left as it is. The timestamp is SOURCE_DATE_EPOCH, else now.
For rye build --verify-sources elsewhere, trust the key there: rye keys trust. Exit code 1 when
an item cannot be signed.`;

const KINDS = new Set(["directive", "knowledge", "tool", "config"]);

/** `rye sign`: sign source items in place with this machine's key. */
export async function run(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandLine(args, { project: { type: "string" }, kind: { type: "string" }, json: { type: "boolean" } }, USAGE, io);
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  if (values.kind !== undefined && !KINDS.has(values.kind)) {
    io.stderr.write(`--kind must be one of ${[...KINDS].join(", ")}\n\n${USAGE}\n`);
    return 2;
  }
  const project = resolve(io.cwd, values.project ?? ".");
  const { targets, problems } = findSignTargets(project, positionals, io.cwd, values.kind as ItemKind | undefined);
  for (const p of problems) io.stderr.write(`error: ${p}\n`);
  if (targets.length === 0 && problems.length === 0) {
    io.stderr.write(`No items to sign under ${shown(resolve(project, ".ai"), io.cwd)}.\n`);
    return 1;
  }
  const keyRefused = await machineKeyRefusal(io.env, io.cwd);
  if (keyRefused) {
    io.stderr.write(`rye sign: this machine's signing key cannot sign: ${keyRefused}\n`);
    return 1;
  }
  const key = signingKey(io);
  const timestamp = signingTime(io.env);
  const results = targets.map((t) => signFile(t, key, timestamp));
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ fingerprint: key.fingerprint, timestamp, problems, items: results.map((r) => ({ ...r, path: shown(r.path, io.cwd) })) }, null, 2)}\n`);
  } else {
    for (const r of results) {
      const line = `${r.status.padEnd(10)}${r.kind.padEnd(10)}${shown(r.path, io.cwd)}${r.detail ? `  (${r.detail})` : ""}\n`;
      (r.status === "error" ? io.stderr : io.stdout).write(line);
    }
    const count = (s: string) => results.filter((r) => r.status === s).length;
    io.stdout.write(
      `Signed ${count("signed") + count("re-signed")} items with key ${key.fingerprint} (${count("unchanged")} already signed, ${count("error") + problems.length} failed).\n` +
        `Where they are verified (rye build --verify-sources, rye verify), trust this key: rye keys trust [--space DIR] ${resolve(signingKeyDir(io.env), "public_key.pem")}\n`,
    );
  }
  return problems.length > 0 || results.some((r) => r.status === "error") ? 1 : 0;
}
