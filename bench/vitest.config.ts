import { defineConfig } from "vitest/config";

/**
 * Benchmarks that call services directly on an in-memory database (run by `npm run bench`, never by
 * `npm test`): each file prints its figures; no timed assertions.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    root: ".",
    include: ["bench/**/*.bench-run.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
