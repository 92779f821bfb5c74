import { screen, within } from "@testing-library/react";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { clearOutbox, codeIn, mailsTo, silenceMailLog, startTestApp, stopTestApp } from "~/test/app";
import { actionDataOf, descriptionOf, renderRoute } from "~/test/render-route";
import * as login from "./login";
import * as otp from "./otp";
// Loaded now, as a browser has the form's checks long before a person presses anything (the page
// fetches them once it is interactive): a late arrival would redraw the form under the person's hands.
import "./login.schema";
import "./otp.schema";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

beforeEach(() => {
  silenceMailLog();
  clearOutbox();
});

test("a malformed address comes back with the message in the error summary and under the field", async () => {
  const actionData = await actionDataOf(login, "/login", { email: "not-an-email", redirectTo: "" });
  await renderRoute({ module: login, path: "/login", actionData });

  const summary = screen.getByRole("alert");
  expect(within(summary).getByRole("heading").textContent).toBe("Det er et problem");
  const link = within(summary).getByRole("link", {
    name: "Skriv inn en gyldig e-postadresse, for eksempel navn@example.org.",
  });
  const field = screen.getByLabelText("E-postadresse");
  expect(link.getAttribute("href")).toBe(`#${field.id}`);
  expect((field as HTMLInputElement).value).toBe("not-an-email");
  expect(descriptionOf(field)).toContain("Feil: Skriv inn en gyldig e-postadresse, for eksempel navn@example.org.");
});

test("in English the same answer reads in English", async () => {
  const actionData = await actionDataOf(login, "/login", { email: "not-an-email", redirectTo: "" });
  await renderRoute({ module: login, path: "/login", actionData, language: "en" });
  const summary = screen.getByRole("alert");
  expect(within(summary).getByRole("heading").textContent).toBe("There is a problem");
  expect(within(summary).getByRole("link").textContent).toBe(
    "Enter a valid e-mail address, for example name@example.org.",
  );
  expect(descriptionOf(screen.getByLabelText("E-mail address"))).toContain(
    "Error: Enter a valid e-mail address, for example name@example.org.",
  );
});

test("a person types an address, presses “Send kode”, then a wrong code and the right one", async () => {
  const page = await renderRoute({ module: login, path: "/login", next: [{ pattern: "/otp", module: otp }] });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Logg inn med e-post");
  await page.user.type(screen.getByLabelText("E-postadresse"), "student01@example.org");
  await page.user.click(screen.getByRole("button", { name: "Send kode" }));

  expect((await screen.findByRole("heading", { level: 1, name: "Skriv inn koden" })).textContent).toBe(
    "Skriv inn koden",
  );
  expect(page.location()).toBe("/otp");
  expect(screen.getByText(/^Hvis student01@example\.org hører til en bruker i Praksis/)).toBeTruthy();
  const code = codeIn((await mailsTo("student01@example.org"))[0]);
  const wrong = code === "000000" ? "111111" : "000000";

  await page.user.type(screen.getByLabelText("Engangskode"), wrong);
  await page.user.click(screen.getByRole("button", { name: "Logg inn" }));
  const summary = await screen.findByRole("alert");
  expect(within(summary).getByRole("link").textContent).toBe("Feil kode. Sjekk koden i e-posten og prøv igjen.");

  // The person pastes the code from the mail over the wrong one (typing it: see the next test).
  await page.user.tripleClick(screen.getByLabelText("Engangskode"));
  await page.user.paste(code);
  await page.user.click(screen.getByRole("button", { name: "Logg inn" }));
  await expect.poll(() => page.location()).not.toBe("/otp");
  expect(page.location()).toMatch(/^\/(student|privacy-consent|role)/);
});

// The form checks the field again on every keystroke once it has been sent, so after a wrong code
// the message changes as the person types ("Skriv inn koden" → "nøyaktig seks sifre"); the error
// summary stays where it is and the focus in the field, so nothing typed is lost.
test("after a wrong code, a person who types the right one keeps typing in the field", async () => {
  const page = await renderRoute({ module: login, path: "/login", next: [{ pattern: "/otp", module: otp }] });
  await page.user.type(screen.getByLabelText("E-postadresse"), "student02@example.org");
  await page.user.click(screen.getByRole("button", { name: "Send kode" }));
  await screen.findByRole("heading", { level: 1, name: "Skriv inn koden" });
  const code = codeIn((await mailsTo("student02@example.org"))[0]);
  await page.user.type(screen.getByLabelText("Engangskode"), code === "000000" ? "111111" : "000000");
  await page.user.click(screen.getByRole("button", { name: "Logg inn" }));
  await screen.findByRole("alert");
  await page.settled();

  await page.user.clear(screen.getByLabelText("Engangskode"));
  await page.user.type(screen.getByLabelText("Engangskode"), code);
  expect((screen.getByLabelText("Engangskode") as HTMLInputElement).value).toBe(code);
});
