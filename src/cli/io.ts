/** The process surface a command may touch, passed in so commands run in tests without a process. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(io: Io): boolean {
  return Boolean(io.stderr.isTTY) && !("NO_COLOR" in io.env && io.env.NO_COLOR !== "");
}
