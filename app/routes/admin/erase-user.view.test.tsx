import { screen, within } from "@testing-library/react";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { renderRoute } from "~/test/render-route";
import * as eraseUser from "./erase-user";
import * as user from "./user";
// Loaded now, as a browser has the form's checks long before a person presses anything.
import "./user.schema";

let app: Awaited<ReturnType<typeof startTestApp>>;
let cookie: string;

beforeAll(async () => {
  app = await startTestApp();
  cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
});

afterAll(async () => {
  await stopTestApp(app);
});

test("from the user page, in two steps: what goes and what is kept, the box, then the user page says the person is erased", async () => {
  const noraId = String(await userIdOf(app.database.db, "student03@example.org"));
  const next = [{ pattern: "/admin/users/:userId/erase", module: eraseUser }];
  const view = await renderRoute({
    module: user,
    path: `/admin/users/${noraId}`,
    pattern: "/admin/users/:userId",
    params: { userId: noraId },
    cookie,
    next,
  });
  const erasure = screen.getByRole("region", { name: "Sletting" });
  await view.user.click(within(erasure).getByRole("link", { name: "Slett Nora Hansen" }));
  await view.settled();
  expect(view.location()).toBe(`/admin/users/${noraId}/erase`);

  expect((await screen.findByRole("heading", { level: 1, name: /Slette Nora Hansen\?$/ })).textContent).toBe(
    "Sletting på forespørsel Slette Nora Hansen?",
  );
  const goes = screen.getByRole("table", { name: "Dette slettes nå" });
  expect(within(goes).getByRole("rowheader", { name: /^Brukerkontoen/ })).toBeTruthy();
  expect(screen.getByRole("heading", { level: 2, name: "Dette må beholdes" })).toBeTruthy();

  // The first press, without the box: refused, saying why; nothing done.
  await view.user.click(screen.getByRole("button", { name: "Slett Nora Hansen" }));
  await view.settled();
  const summary = await screen.findByRole("alert");
  expect(
    within(summary).getByRole("link", { name: "Kryss av for at du forstår at slettingen ikke kan angres." }),
  ).toBeTruthy();
  expect(view.location()).toBe(`/admin/users/${noraId}/erase`);

  await view.user.click(screen.getByRole("checkbox", { name: "Jeg forstår at dette ikke kan angres" }));
  await view.user.click(screen.getByRole("button", { name: "Slett Nora Hansen" }));
  await view.settled();
  expect(view.location()).toBe(`/admin/users/${noraId}`);
  expect(view.flashText()).toBe("Nora Hansen er slettet. Det som må beholdes, slettes når perioden er ute.");
  expect((await screen.findByRole("heading", { level: 1, name: /Slettet bruker/ })).textContent).toContain(
    "Slettet bruker",
  );
  expect(
    screen.getByText("Denne personen er slettet. Navn, e-post, telefonnummer og Feide-id er fjernet."),
  ).toBeTruthy();
  // The placeholder address is no one's: the page says the address was removed.
  expect(screen.queryByText(/anonymisert\.invalid/)).toBeNull();
  expect(screen.getByText("Fjernet")).toBeTruthy();
  // Nothing of them to edit, no access to give back.
  expect(screen.queryByRole("button", { name: "Lagre endringer" })).toBeNull();
  expect(screen.queryByRole("button", { name: "Aktiver brukeren" })).toBeNull();
});

test("the admin's own page offers no erasure, and its erasure page says why", async () => {
  const adminId = String(await userIdOf(app.database.db, "admin@example.org"));
  await renderRoute({
    module: user,
    path: `/admin/users/${adminId}`,
    pattern: "/admin/users/:userId",
    params: { userId: adminId },
    cookie,
  });
  const erasure = screen.getByRole("region", { name: "Sletting" });
  expect(within(erasure).getByText("Du kan ikke slette deg selv.")).toBeTruthy();
  expect(within(erasure).queryByRole("link")).toBeNull();

  await renderRoute({
    module: eraseUser,
    path: `/admin/users/${adminId}/erase`,
    pattern: "/admin/users/:userId/erase",
    params: { userId: adminId },
    cookie,
  });
  expect(screen.getByText("Du kan ikke slette deg selv. En annen administrator må gjøre det.")).toBeTruthy();
  expect(screen.queryByRole("button", { name: /^Slett/ })).toBeNull();
});
