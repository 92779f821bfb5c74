import { screen, within } from "@testing-library/react";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { calendar, dateText } from "~/test/calendar";
import { renderRoute } from "~/test/render-route";
import * as homePage from "./home";
import * as joinPage from "./join-class";
// Loaded now, as a browser has the form's checks long before a person presses anything (the page
// fetches them once it is interactive): a late arrival would redraw the form under the person's hands.
import "./join-class.schema";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

const todoRegion = () => screen.getByRole("region", { name: "Dette venter på deg" });

test("a student's to-do lists each form not sent, with its deadline, and says which are late", async () => {
  const cookie = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
  await renderRoute({ module: homePage, path: "/student", cookie });

  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Min praksis");
  const todo = todoRegion();
  expect(within(todo).queryByRole("heading", { name: "Varsel" })).toBeNull();
  expect(within(todo).getByRole("heading", { level: 3 }).textContent).toBe("Skjemaer som ikke er sendt");
  const items = within(todo)
    .getAllByRole("listitem")
    .map((li) => li.textContent?.replace(/\s+/g, " ").trim());
  const end = dateText(calendar.classes.SYK2001.endSemesterDate);
  expect(items).toEqual([
    expect.stringMatching(/^Start: Legemiddelhåndtering \(Midtveis\) – Frist .+ Fristen er ute$/),
    `Start: Vurdering av kliniske kompetanser (Slutt) – Frist ${end}`,
    `Start: Legemiddelhåndtering (Slutt) – Frist ${end}`,
  ]);
  const first = within(todo).getAllByRole("link")[0];
  expect(first.getAttribute("href")).toMatch(/^\/student\/\d+\/form\/\d+\/class\/\d+\/assignment\/\d+$/);

  expect(screen.getByRole("heading", { level: 2, name: "Emnet ditt dette semesteret" })).toBeTruthy();
  expect(screen.getByRole("link", { name: "Gå til skjemaene dine" }).getAttribute("href")).toBe("/student/forms");
});

test("a student given a warning is told first to read it and confirm it", async () => {
  const cookie = await cookieActingAs(db(), "student18@example.org", ROLE.Student);
  await renderRoute({ module: homePage, path: "/student", cookie });
  const todo = todoRegion();
  expect(within(todo).getByRole("heading", { level: 3, name: "Varsel" })).toBeTruthy();
  expect(within(todo).getByText("Du har fått et varsel. Les det og bekreft at du har lest det.")).toBeTruthy();
  expect(within(todo).getByRole("link", { name: "Les varselet" }).getAttribute("href")).toBe("/student/warning");
});

test("a student without a class picks one; pressing without a choice says so, and joining says which class", async () => {
  const cookie = await cookieActingAs(db(), "student25@example.org", ROLE.Student);
  const page = await renderRoute({
    module: homePage,
    path: "/student",
    cookie,
    next: [{ pattern: "/student/join-class", module: joinPage }],
  });
  expect(screen.queryByRole("region", { name: "Dette venter på deg" })).toBeNull();
  expect(screen.getByRole("heading", { level: 2, name: "Bli med i en klasse" })).toBeTruthy();

  await page.user.click(screen.getByRole("button", { name: "Bli med i klassen" }));
  // The join page answers with the message in its error summary.
  const summary = await screen.findByRole("alert");
  expect(within(summary).getByRole("link").textContent).toBe("Velg klassen du vil være med i");

  await page.user.click(screen.getByRole("radio", { name: /^SYK2002 Praksis i spesialisthelsetjenesten/ }));
  await page.user.click(screen.getByRole("button", { name: "Bli med i klassen" }));
  await expect.poll(() => page.flashText()).toBe("Du er nå med i SYK2002 Praksis i spesialisthelsetjenesten.");
  expect(page.location()).toBe("/student/forms");
  expect(within(screen.getByRole("status")).getByText(/Du er nå med i SYK2002/)).toBeTruthy();
});
