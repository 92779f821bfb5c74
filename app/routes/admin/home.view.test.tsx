import { screen, within } from "@testing-library/react";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { renderRoute } from "~/test/render-route";
import * as home from "./home";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

test("the admin's main page: the six sections with what each is for, this semester's classes and how many use Praksis", async () => {
  const cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  await renderRoute({ module: home, path: "/admin", cookie });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Administrasjon");
  expect(screen.getByText("Hei, Ada Administrator!")).toBeTruthy();

  const sections = screen.getByRole("navigation", { name: "Administrasjon" });
  expect(
    within(sections)
      .getAllByRole("link")
      .map((a) => [a.textContent, a.getAttribute("href")]),
  ).toEqual([
    [expect.stringMatching(/^Semestre/), "/admin/semesters"],
    [expect.stringMatching(/^Skjemaer/), "/admin/forms"],
    [expect.stringMatching(/^Emner/), "/admin/subjects"],
    [expect.stringMatching(/^Brukere/), "/admin/users"],
    [expect.stringMatching(/^Revisjonslogg/), "/admin/audit"],
    [expect.stringMatching(/^Påminnelser/), "/admin/reminders"],
  ]);
  expect(within(sections).getByText("Praksisemnene og emnekodene deres.")).toBeTruthy();

  const classes = screen.getByRole("table", { name: "Klasser dette semesteret" });
  expect(
    within(classes)
      .getByRole("link", { name: /^SYK2001 Praksis i sykehjem/ })
      .getAttribute("href"),
  ).toMatch(/^\/admin\/class\/\d+$/);

  const users = screen.getByRole("table", { name: "Aktive brukere" });
  const counts = within(users)
    .getAllByRole("row")
    .slice(1)
    .map((row) => [within(row).getByRole("rowheader").textContent, within(row).getByRole("cell").textContent]);
  expect(counts).toEqual([
    ["Administrator", "1"],
    ["Student", "25"],
    ["Praksislærer", "4"],
    ["Praksisveileder", "4"],
  ]);
});
