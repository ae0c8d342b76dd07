import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// The test files one mutation run uses (scripts/mutate.mjs sets them per mutated file): running
// the whole suite once per mutant would take hours on a small machine.
const include = (process.env.RYE_MUTATION_TESTS ?? "").split(",").filter(Boolean);

export default defineConfig({
  test: {
    ...base.test,
    include: include.length > 0 ? include : ["test/mutation/**/*.test.ts"],
  },
});
