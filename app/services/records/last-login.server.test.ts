import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { completeLogin, findUserByEmail } from "~/services/identity/index.server";
import { users } from "~/services/platform/db/schema";
import { startTestApp, stopTestApp } from "~/test/app";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

// Every way in (an e-mailed code, Feide, Vipps) ends in completeLogin: the records schedule counts
// a person's period from the log-in it records.
test("a successful log-in records the person's last log-in", async () => {
  const db = app.database.db;
  const user = (await findUserByEmail(db, "laerer2@example.org"))!;
  const [before] = await db.select({ at: users.lastLoginAt }).from(users).where(eq(users.id, user.id));
  expect(before.at).toBeNull();
  const started = Date.now();
  const response = await completeLogin(db, {
    user,
    request: new Request("http://localhost/otp", { method: "POST" }),
    ip: "192.0.2.1",
    method: "email-code",
    redirectTo: null,
  });
  expect(response.status).toBe(303);
  const [after] = await db.select({ at: users.lastLoginAt }).from(users).where(eq(users.id, user.id));
  expect(after.at!.getTime()).toBeGreaterThanOrEqual(started - 5_000);
});
