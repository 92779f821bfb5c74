import { defineConfig } from "vitest/config";

/**
 * Benchmarks that call services directly on a database of the run's throwaway PostgreSQL (run by `npm run bench`, never by
 * `npm test`): each file prints its figures; no timed assertions.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    root: ".",
    include: ["bench/**/*.bench-run.ts"],
    pool: "forks",
    fileParallelism: false,
    globalSetup: ["./app/test/postgres.global.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
