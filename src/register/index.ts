// `node --import rye-build/register app.js`: verifies every file of a build output folder against
// its signed manifest before Node evaluates it (see docs/security-model.md).
import { isMainThread } from "node:worker_threads";
import { checkMainScript, registerVerifier } from "./register-verifier.js";

registerVerifier();
if (isMainThread) checkMainScript();
