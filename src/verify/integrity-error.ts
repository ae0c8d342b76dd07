// One error class for every refusal: the runtime's module check and the verifier throw the same
// IntegrityError, so `instanceof` holds whichever of them refused.
export { IntegrityError } from "../runtime/verify-module.js";
