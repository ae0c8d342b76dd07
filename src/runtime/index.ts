// The run-time library compiled modules import. It never imports the compiler.
export { PyFloat, floatRepr, isPyWhitespace, pyRepr, pyStr, pyStrip, strRepr } from "./pystr.js";
export { parsePyJson, pyJsonDumps } from "./py-json.js";
export { isPyDict, pyDict, pyItems, pyKeys, type PyDict, type PyValue } from "./py-value.js";
export { DOLLAR_INPUT, ENV_REF, INPUT_REF, interpolateParsed, resolveEnvRefs, resolveInputRefs } from "./interpolate.js";
export { checkInputTypes, validateInputs, type DeclaredInput, type InputValidation } from "./validate.js";
export { applyInputDefaults, validateGraphInputs, type InputSchema } from "./graph-inputs.js";
export * from "./directive.js";
export { IntegrityError, verifyModuleSource } from "./verify-module.js";
