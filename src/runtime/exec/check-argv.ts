// What the OS refuses to pass to a new process, checked before the spawn so the failure says which
// value is at fault instead of surfacing as a TypeError or a bare E2BIG.

/** Linux's MAX_ARG_STRLEN: the longest single argument or `NAME=value` environment string. */
export const MAX_ARG_BYTES = 128 * 1024;
/** A conservative total for argv plus environment (Linux allows a quarter of the stack, often 2 MiB). */
export const MAX_ARGV_TOTAL_BYTES = 2 * 1024 * 1024;

const bytes = (s: string) => Buffer.byteLength(s, "utf8") + 1;

/**
 * The first reason `file args… env` cannot be spawned, or null. `name(i)` names argument i for the
 * message (e.g. the placeholder it came from); `hint` says how to pass large text instead.
 */
export function argvProblem(
  file: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  options: { name?: (i: number) => string; hint?: string } = {},
): string | null {
  const name = options.name ?? ((i: number) => `argument ${i + 1}`);
  const hint = options.hint ?? "pass large values on stdin or in a file";
  if (file.includes("\0")) return `the command name holds a NUL byte, which no process argument can carry`;
  for (const [i, a] of args.entries()) {
    if (a.includes("\0")) return `${name(i)} holds a NUL byte at offset ${a.indexOf("\0")}, which no process argument can carry; remove it`;
  }
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && (k.includes("\0") || v.includes("\0"))) return `environment variable ${JSON.stringify(k.replace(/\0/g, "\\0"))} holds a NUL byte, which no environment entry can carry; remove it`;
  }
  if (process.platform !== "linux") return null;
  let total = bytes(file);
  for (const [i, a] of args.entries()) {
    const n = bytes(a);
    if (n > MAX_ARG_BYTES) return `${name(i)} is ${n - 1} bytes, over the OS limit of ${MAX_ARG_BYTES} bytes for one argument (E2BIG); ${hint}`;
    total += n;
  }
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const n = bytes(`${k}=${v}`);
    if (n > MAX_ARG_BYTES) return `environment variable ${k} is ${n - 1} bytes, over the OS limit of ${MAX_ARG_BYTES} bytes for one entry (E2BIG); ${hint}`;
    total += n;
  }
  if (total > MAX_ARGV_TOTAL_BYTES) return `arguments and environment total ${total} bytes, over the OS limit of about ${MAX_ARGV_TOTAL_BYTES} bytes (E2BIG); ${hint}`;
  return null;
}

/** Why a spawn failed, in a few words: a missing binary, E2BIG, a permission problem. */
export function spawnFailureReason(file: string, error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === "ENOENT") return `not found${file.includes("/") ? "" : " on PATH"}`;
  if (code === "EACCES") return "not executable (permission denied)";
  if (code === "E2BIG") return "arguments and environment over the OS limit (E2BIG); pass large values on stdin or in a file";
  const e = error as { shortMessage?: string; message?: string } | null;
  return String(e?.shortMessage ?? e?.message ?? error).split("\n")[0]!;
}
