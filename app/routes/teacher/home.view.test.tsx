import { screen, within } from "@testing-library/react";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { calendar, dateText } from "~/test/calendar";
import { renderRoute } from "~/test/render-route";
import * as home from "./home";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

const rowTexts = (table: HTMLElement) =>
  within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.textContent?.replace(/\s+/g, " ").trim());

test("what waits on a teacher: their students' forms not sent, late ones marked, each with a link to start it", async () => {
  const cookie = await cookieActingAs(app.database.db, "laerer1@example.org", ROLE.Teacher);
  await renderRoute({ module: home, path: "/teacher", cookie });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Mine emner");

  const todo = screen.getByRole("region", { name: "Dette venter på deg" });
  const table = within(todo).getByRole("table", { name: "Skjemaer du ikke har sendt" });
  const rows = rowTexts(table);
  const mid = dateText(calendar.classes.SYK2001.midSemesterDate);
  const end = dateText(calendar.classes.SYK2001.endSemesterDate);
  expect(rows).toContain(
    `Ella Olsen (SYK2001)Legemiddelhåndtering (Midtveis)${mid} Fristen er uteStart Legemiddelhåndtering, Ella Olsen (Midtveis)`,
  );
  expect(rows).toContain(
    `Ella Olsen (SYK2001)Vurdering av kliniske kompetanser (Slutt)${end}Start Vurdering av kliniske kompetanser, Ella Olsen (Slutt)`,
  );
  // Each link names its half: the mid-semester and the end-semester form are told apart by name.
  const start = within(table).getByRole("link", { name: "Start Legemiddelhåndtering, Ella Olsen (Midtveis)" });
  expect(within(table).getByRole("link", { name: "Start Legemiddelhåndtering, Ella Olsen (Slutt)" })).not.toBe(start);
  expect(start.getAttribute("href")).toMatch(/^\/teacher\/class\/\d+\/student\/\d+\/form\/\d+\/assignment\/\d+$/);
  // The teacher's own students only: nothing from the other class.
  expect(rows.some((r) => r?.includes("SYK2002"))).toBe(false);

  expect(screen.getByRole("table", { name: "Dine emner dette semesteret" })).toBeTruthy();
});

test("a teacher is told of a warning the student has not confirmed and of students without a supervisor", async () => {
  const cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Teacher);
  await renderRoute({ module: home, path: "/teacher", cookie });
  const todo = screen.getByRole("region", { name: "Dette venter på deg" });

  const warnings = within(todo).getByRole("heading", { level: 3, name: "Varsler studenten ikke har bekreftet" });
  const warningList = warnings.nextElementSibling as HTMLElement;
  expect(within(warningList).getByRole("listitem").textContent).toMatch(
    /^Aksel Lie \(SYK2002 Praksis i spesialisthelsetjenesten\), gitt \d{1,2}\.\d{1,2}\.\d{4}$/,
  );
  expect(within(warningList).getByRole("link", { name: "Aksel Lie" }).getAttribute("href")).toMatch(
    /^\/teacher\/class\/\d+\/student\/\d+\/warning$/,
  );

  const without = within(todo).getByRole("heading", { level: 3, name: "Studenter uten praksisveileder" });
  const withoutList = without.nextElementSibling as HTMLElement;
  expect(
    within(withoutList)
      .getAllByRole("listitem")
      .map((li) => li.textContent),
  ).toEqual([expect.stringMatching(/^Tobias Myhre \(SYK2002/)]);
});
