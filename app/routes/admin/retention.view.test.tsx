import { cleanup, screen, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { classes, semesters } from "~/services/platform/db/schema";
import { currentInstitution } from "~/services/platform/institution.server";
import { retentionRules } from "~/services/records";
import { runRetention } from "~/services/records/index.server";
import { classIdOf, cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { renderRoute } from "~/test/render-route";
import * as retention from "./retention";

let app: Awaited<ReturnType<typeof startTestApp>>;
let cookie: string;

beforeAll(async () => {
  app = await startTestApp();
  cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  // The demo's previous semester (SYK1002) three years back: past every default period.
  const db = app.database.db;
  const oldClassId = await classIdOf(db, "SYK1002");
  const [old] = await db.select().from(classes).where(eq(classes.id, oldClassId));
  const [semester] = await db.select().from(semesters).where(eq(semesters.id, old.semesterId));
  const back = (date: string) => `${Number(date.slice(0, 4)) - 3}${date.slice(4)}`;
  await db
    .update(semesters)
    .set({ startDate: back(semester.startDate), endDate: back(semester.endDate) })
    .where(eq(semesters.id, semester.id));
  await db
    .update(classes)
    .set({
      midSemesterDate: old.midSemesterDate && back(old.midSemesterDate),
      endSemesterDate: old.endSemesterDate && back(old.endSemesterDate),
    })
    .where(eq(classes.id, oldClassId));
});

afterAll(async () => {
  await stopTestApp(app);
});

const rowOf = (table: HTMLElement, header: string) =>
  within(table)
    .getAllByRole("row")
    .find((row) => within(row).queryByRole("rowheader")?.textContent?.startsWith(header))!;

test("before the run: each kind with its rule in words and its count, the old class with what goes of it; after it: the last run's counts and no class", async () => {
  await renderRoute({ module: retention, path: "/admin/retention", cookie });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Oppbevaring og sletting");
  const kinds = screen.getByRole("table", { name: "Hva som fjernes ved neste kjøring" });
  const answers = rowOf(kinds, "Svar og kommentarer");
  expect(within(answers).getAllByRole("cell")[0].textContent).toBe("slettes 365 dager etter at klassen er slutt");
  expect(Number(within(answers).getAllByRole("cell")[1].textContent)).toBeGreaterThan(0);
  expect(within(rowOf(kinds, "Personer uten rolle eller klasse")).getAllByRole("cell")[0].textContent).toBe(
    "anonymiseres 730 dager etter siste innlogging",
  );
  const byClass = screen.getByRole("table", { name: "Det som fjernes per klasse" });
  const old = rowOf(byClass, "SYK1002");
  expect(within(old).getByRole("link").getAttribute("href")).toMatch(/^\/admin\/class\/\d+$/);
  expect(within(old).getByText(/^Svar og kommentarer: \d+$/)).toBeTruthy();
  expect(screen.getByText("Praksis har ikke kjørt slettingen ennå.")).toBeTruthy();

  await runRetention(app.database.db, retentionRules(currentInstitution()), new Date());
  cleanup();
  await renderRoute({ module: retention, path: "/admin/retention", cookie });
  expect(screen.getByText("Neste kjøring fjerner ingenting.")).toBeTruthy();
  expect(screen.getByText("Ingen klasser har noe som fjernes ved neste kjøring.")).toBeTruthy();
  const runs = screen.getByRole("region", { name: "Kjøringene" });
  expect(within(runs).getByText(/^Forrige kjøring var \d{1,2}\.\d{1,2}\.\d{4} kl\. \d\d:\d\d\.$/)).toBeTruthy();
  expect(within(runs).getByText(/^Svar og kommentarer: \d+$/)).toBeTruthy();
});

test("in English", async () => {
  await renderRoute({ module: retention, path: "/admin/retention", cookie, language: "en" });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Retention");
  const kinds = screen.getByRole("table", { name: "What the next run removes" });
  expect(within(rowOf(kinds, "Answers and comments")).getAllByRole("cell")[0].textContent).toBe(
    "deleted 365 days after the class ends",
  );
});
