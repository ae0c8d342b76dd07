// Asks a real shell where it reads its program from, for the option tests of shell-options.ts.
// Every plain word of the argv is both a command on PATH (printing `CMD:word`) and a file in the
// working folder (holding `echo FILE:word`), and stdin holds `echo STDIN`: what the shell prints
// says whether it ran a word as its `-c` script, a word as its script file, or its stdin.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where a program is installed, or null. */
export function which(name: string): string | null {
  for (const dir of (process.env.PATH ?? "/usr/bin:/bin").split(":")) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/**
 * What `shell args…` ran: `CMD:w`, `FILE:w`, `STDIN` (in the order printed, space-separated), or
 * `error` when it printed nothing (an option it refuses, or a missing `-c` script).
 */
export function probeShell(shell: readonly string[], args: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "rye-shell-probe-"));
  try {
    const bin = join(dir, "bin");
    mkdirSync(bin);
    for (const w of new Set(args)) {
      if (!/^[A-Za-z][A-Za-z+_]*$/.test(w)) continue;
      writeFileSync(join(dir, w), `echo FILE:${w}\n`);
      writeFileSync(join(bin, w), `#!/bin/sh\necho CMD:${w}\n`);
      chmodSync(join(bin, w), 0o755);
    }
    const run = spawnSync(shell[0]!, [...shell.slice(1), ...args], {
      cwd: dir,
      input: "echo STDIN\n",
      encoding: "utf8",
      timeout: 5000,
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, ENV: "" },
    });
    // Only the probe's own lines: an interactive shell may greet or warn on stdout too.
    const out = (run.stdout ?? "").split(/\s+/).filter((t) => /^(?:CMD:|FILE:|STDIN$)/.test(t)).join(" ");
    return out === "" ? "error" : out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
