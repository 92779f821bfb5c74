import { screen, waitFor, within } from "@testing-library/react";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { descriptionOf, renderRoute } from "~/test/render-route";
import * as subjects from "./subjects";
// Loaded now, as a browser has the form's checks long before a person presses anything (the page
// fetches them once it is interactive): a late arrival would redraw the form under the person's hands.
import "./subjects.schema";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

test("adding a subject whose code exists: the summary and the field say so, and the typed name stays", async () => {
  const cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  const view = await renderRoute({ module: subjects, path: "/admin/subjects", cookie });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Emner");
  expect(screen.getByRole("heading", { level: 2, name: "Nytt emne" })).toBeTruthy();

  await view.user.type(screen.getByLabelText("Emnekode"), "syk2001");
  await view.user.type(screen.getByLabelText("Navn på emnet"), "Praksis i rus og psykiatri");
  await view.user.click(screen.getByRole("button", { name: "Opprett emne" }));

  await screen.findByRole("alert");
  await view.settled();
  const summary = screen.getByRole("alert");
  const link = within(summary).getByRole("link", { name: "Emnekoden finnes allerede." });
  const code = screen.getByLabelText("Emnekode");
  expect(link.getAttribute("href")).toBe(`#${code.id}`);
  expect(descriptionOf(code)).toContain("Feil: Emnekoden finnes allerede.");
  expect((screen.getByLabelText("Navn på emnet") as HTMLInputElement).value).toBe("Praksis i rus og psykiatri");
});

test("a new subject is created: the message names it and the list shows it", async () => {
  const cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  const view = await renderRoute({ module: subjects, path: "/admin/subjects", cookie });
  await view.user.type(screen.getByLabelText("Emnekode"), "rt100");
  await view.user.type(screen.getByLabelText("Navn på emnet"), "Praksis i rus og psykiatri");
  await view.user.click(screen.getByRole("button", { name: "Opprett emne" }));
  await expect.poll(() => view.flashText()).toBe("Emnet RT100 er opprettet.");
  await view.settled();
  expect(screen.queryByRole("alert")).toBeNull();
  await waitFor(() =>
    within(screen.getByRole("table", { name: "Alle emner" })).getByRole("rowheader", { name: "RT100" }),
  );
});
