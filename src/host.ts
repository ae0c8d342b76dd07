/**
 * The process surface the build engine and the commands may touch (streams, working directory,
 * environment), passed in so they run in tests and in a host program without a process of their own.
 */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** This process's own streams, working directory and environment. */
export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}
