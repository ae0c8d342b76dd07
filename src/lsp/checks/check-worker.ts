// The worker thread the language server checks projects on (see check-thread.ts).
import { parentPort } from "node:worker_threads";
import { serveChecks } from "./serve-checks.js";
import type { ToChecker } from "./protocol.js";

const port = parentPort!;
const receive = serveChecks((m) => port.postMessage(m));
port.on("message", (m: ToChecker) => receive(m));
