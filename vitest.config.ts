import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // Compiled modules no longer check themselves, so importing unsigned output needs nothing; this
    // is read only by src/runtime/integrity.ts, which no emitted module imports.
    env: { RYE_ALLOW_UNSIGNED: "1" },
  },
});
