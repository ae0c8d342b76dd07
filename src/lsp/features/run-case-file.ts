// Starts a `rye.test` run in a worker thread of its own, so the server's memory does not grow with
// every run; where no built worker file exists (the sources run directly), the run happens here.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { CaseRunRequest, TestRun } from "./case-run.js";

const WORKER = ((url: URL) => (url.protocol === "file:" && url.pathname.endsWith(".js") && existsSync(url) ? url : null))(new URL("./case-worker.js", import.meta.url));

export async function runCasesApart(req: CaseRunRequest): Promise<TestRun> {
  // The test runner (and execa behind it) loads with the first run here, not with the server.
  if (WORKER === null) return (await import("./case-run.js")).runCases(req);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: req });
    let answered = false;
    worker.once("message", (m: { run?: TestRun; error?: string }) => {
      answered = true;
      void worker.terminate();
      if (m.run) resolve(m.run);
      else reject(new Error(m.error ?? "the test run ended without an answer"));
    });
    worker.once("error", (e) => {
      answered = true;
      reject(e);
    });
    worker.once("exit", (code) => {
      if (!answered) reject(new Error(`the test run's worker exited with code ${code} before answering`));
    });
  });
}
