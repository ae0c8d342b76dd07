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

/** This process's working directory and environment, with output thrown away (the API's default). */
export function quietIo(): Io {
  const sink = { write: () => true } as unknown as Io["stdout"];
  return { stdout: sink, stderr: sink, cwd: process.cwd(), env: process.env };
}
