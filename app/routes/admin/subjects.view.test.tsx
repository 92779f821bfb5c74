import { screen, within } from "@testing-library/react";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { descriptionOf, renderRoute } from "~/test/render-route";
import * as subjects from "./subjects";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

test("adding a subject whose code exists: the summary and the field say so; a new code is created, with its message and its row", async () => {
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

  // The person writes the code anew (pasted, one change: see the log-in form's test for typing after an error).
  await view.user.tripleClick(screen.getByLabelText("Emnekode"));
  await view.user.paste("rt100");
  await view.user.click(screen.getByRole("button", { name: "Opprett emne" }));
  await expect.poll(() => view.flashText()).toBe("Emnet RT100 er opprettet.");
  expect(screen.queryByRole("alert")).toBeNull();
  const table = screen.getByRole("table", { name: "Alle emner" });
  expect(within(table).getByRole("rowheader", { name: "RT100" }) ?? within(table).getByText("RT100")).toBeTruthy();
});
