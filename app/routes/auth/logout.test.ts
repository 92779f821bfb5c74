import { afterAll, beforeAll, expect, test } from "vitest";
import { sessionCookieFor, startTestApp, stopTestApp } from "~/test/app";
import { callAction, flashOf, postForm, TEST_ORIGIN } from "~/test/route";
import * as logout from "./logout";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

const logOutWith = async (fields: Record<string, string>) =>
  callAction(
    logout,
    postForm("/logout", fields, { cookie: await sessionCookieFor(app.database.db, "student01@example.org") }),
  );

test("answers kept in the browser are named in the message, and stay there (ADR 0011)", async () => {
  const response = await logOutWith({ unsent: "2" });
  expect(response.status).toBe(303);
  expect(await flashOf(response)).toEqual({ type: "info", key: "auth:loggedOutUnsent", values: { count: 2 } });
});

test("none kept (or JavaScript off, where the field is empty): the plain message", async () => {
  for (const fields of [{ unsent: "" }, { unsent: "0" }, {}] as Record<string, string>[]) {
    expect(await flashOf(await logOutWith(fields))).toEqual({ type: "success", key: "auth:loggedOut" });
  }
});

test("anything but a small count reads as none, and the logout still happens", async () => {
  for (const unsent of ["-1", "1.5", "abc", "99999", "1e3"]) {
    const response = await logOutWith({ unsent });
    expect(response.status).toBe(303);
    expect(response.headers.getSetCookie().some((c) => /praksis_session=;/.test(c))).toBe(true);
    expect(await flashOf(response)).toEqual({ type: "success", key: "auth:loggedOut" });
  }
  const unreadable = new Request(`${TEST_ORIGIN}/logout`, {
    method: "POST",
    headers: {
      Origin: TEST_ORIGIN,
      cookie: await sessionCookieFor(app.database.db, "student01@example.org"),
      "Content-Type": "multipart/form-data; boundary=x",
    },
    body: "garbage",
  });
  expect(await flashOf(await callAction(logout, unreadable))).toEqual({ type: "success", key: "auth:loggedOut" });
});
