import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // Most suites compile with the pure build() (unsigned) and import the result; integrity tests
    // sign their own output and check that a signed module must verify whatever this says.
    env: { RYE_ALLOW_UNSIGNED: "1" },
  },
});
