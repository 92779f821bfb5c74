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

test("what waits on a supervisor: the forms of their students not sent, a draft to continue, and their classes", async () => {
  const cookie = await cookieActingAs(app.database.db, "veileder1@example.org", ROLE.Supervisor);
  await renderRoute({ module: home, path: "/supervisor", cookie });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Mine emner");

  const todo = screen.getByRole("region", { name: "Dette venter på deg" });
  const table = within(todo).getByRole("table", { name: "Skjemaer du ikke har sendt" });
  const rows = within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.textContent?.replace(/\s+/g, " ").trim());
  const mid = dateText(calendar.classes.SYK2001.midSemesterDate);
  expect(rows).toContain(
    `Noah Johansen (SYK2001)Legemiddelhåndtering (Midtveis)${mid} Fristen er uteStart Legemiddelhåndtering, Noah Johansen (Midtveis)`,
  );
  // A form the supervisor has begun says so: "Fortsett", not "Start".
  const draft = within(table).getByRole("link", {
    name: /^Fortsett Vurdering av kliniske kompetanser, Nora Hansen \((Midtveis|Slutt)\)$/,
  });
  expect(draft.getAttribute("href")).toMatch(/^\/supervisor\/class\/\d+\/student\/\d+\/form\/\d+\/assignment\/\d+$/);

  const classes = screen.getByRole("table", { name: "Emner du veileder i dette semesteret" });
  expect(
    within(classes)
      .getByRole("link", { name: /^SYK2001/ })
      .getAttribute("href"),
  ).toMatch(/^\/supervisor\/class\/\d+$/);
});
