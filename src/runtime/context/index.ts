// System 3 context interpolation and hook conditions.
export { matches } from "./condition.js";
export { interpolateAction, interpolateContext, resolveExpr } from "./interpolate.js";
export { pyIndex, resolvePath, resolvePathTestRunner } from "./resolve-path.js";
