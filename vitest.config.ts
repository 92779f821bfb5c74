import os from "node:os";
import { defineConfig } from "vitest/config";

// Files that replace modules (vi.mock) or reload them (vi.resetModules) need a module registry of
// their own; the rest share their worker's, which saves loading the app for every file (a run took
// about half the time). app/test/setup.ts gives each file the worker's original environment.
const ownModules = [
  "app/services/warnings/warnings.server.test.ts",
  "app/services/placements/invitations.server.test.ts",
  "app/routes/api/students-csv.test.ts",
  "app/services/platform/db/index.server.test.ts",
];

const pageViews = ["app/**/*.view.test.tsx"];

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    setupFiles: ["./app/test/setup.ts"],
    // One throwaway PostgreSQL for the run (the npm-shipped binaries); a database per test file.
    globalSetup: ["./app/test/postgres.global.ts"],
    pool: "forks",
    // One worker per core: vitest's default leaves one core free, which on a 2-core machine ran
    // every file one after another (a database test mostly waits on its database, so both cores fill).
    maxWorkers: os.availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "isolated", include: ownModules, isolate: true },
      },
      {
        extends: true,
        test: {
          name: "shared",
          include: ["app/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
          exclude: [...ownModules, ...pageViews],
          isolate: false,
        },
      },
      // A route's page rendered as a person reads it (app/test/render-route.tsx): a DOM that keeps
      // Node's Request and Response, which the page's real loader and action need (the reason is in
      // app/test/dom-environment.ts; a file's `@vitest-environment` comment can only name a package).
      {
        extends: true,
        test: { name: "views", include: pageViews, environment: "./app/test/dom-environment.ts", isolate: false },
      },
    ],
  },
});
