import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // A --reporter on the command line replaces both (CI passes its own).
    reporters: ["default", "./test/helpers/skip-reporter.ts"],
  },
});
