import { afterEach, beforeAll, beforeEach, vi } from "vitest";
import { resetEnvForTests } from "~/services/platform/env.server";

// Test files share a worker process (vitest.config.ts: isolate off where it can be), so each file
// starts from the environment the worker was started with, not from what the previous file set.
const globals = globalThis as { pristineEnv?: NodeJS.ProcessEnv };
globals.pristineEnv ??= { ...process.env };
beforeAll(() => {
  process.env = { ...globals.pristineEnv };
  resetEnvForTests();
});

// House rule: a stray console.error in a test fails it.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length > 0) {
    const first = errors[0].map((a) => (a instanceof Error ? a.stack : String(a))).join(" ");
    throw new Error(`console.error was called ${errors.length} time(s): ${first}`);
  }
});
