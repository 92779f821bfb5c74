import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { resetEnvForTests } from "~/services/platform/env.server";
import { startTestApp, stopTestApp } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as outbox from "./routes/dev/outbox";
import * as root from "./root";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await stopTestApp(app);
});
afterEach(() => {
  delete process.env.DEMO_MODE;
  delete process.env.SMTP_URL;
  resetEnvForTests();
});

function set(vars: Record<string, string>): void {
  Object.assign(process.env, vars);
  resetEnvForTests();
}

async function layout(): Promise<{ demo: boolean; devOutbox: boolean }> {
  const response = await callLoader(root, getPage("/"));
  expect(response.status).toBe(200);
  return response.json();
}

test("outside demo mode no page says Demo and the outbox is not found", async () => {
  set({ DEMO_MODE: "false" });
  expect(await layout()).toMatchObject({ demo: false, devOutbox: false });
  expect((await callLoader(outbox, getPage("/dev/outbox"))).status).toBe(404);
});

test("in demo mode every page's layout carries the banner, and the outbox (codes and all) is open", async () => {
  set({ DEMO_MODE: "true" });
  expect(await layout()).toMatchObject({ demo: true, devOutbox: true });
  expect((await callLoader(outbox, getPage("/dev/outbox"))).status).toBe(200);
});

test("in demo mode with SMTP_URL the banner stays, and there is no outbox to open", async () => {
  set({ DEMO_MODE: "true", SMTP_URL: "smtp://127.0.0.1:1" });
  expect(await layout()).toMatchObject({ demo: true, devOutbox: false });
  expect((await callLoader(outbox, getPage("/dev/outbox"))).status).toBe(404);
});
