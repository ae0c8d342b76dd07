// The worker thread one `rye.test` run happens in (see case-run.ts): it answers once and ends, and
// every module the run evaluated goes with it.
import { parentPort, workerData } from "node:worker_threads";
import { runCases, type CaseRunRequest } from "./case-run.js";

runCases(workerData as CaseRunRequest).then(
  (run) => parentPort!.postMessage({ run }),
  (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
);
