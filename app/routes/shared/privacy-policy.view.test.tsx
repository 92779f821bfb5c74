import fs from "node:fs";
import path from "node:path";
import { cleanup, screen, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { resetEnvForTests } from "~/services/platform/env.server";
import { startTestApp, stopTestApp } from "~/test/app";
import { renderRoute } from "~/test/render-route";
import * as privacy from "./privacy-policy";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterEach(() => {
  delete process.env.INSTITUTION_FILE;
  resetEnvForTests();
});

afterAll(async () => {
  await stopTestApp(app);
});

const periods = () =>
  within(screen.getByRole("region", { name: /^(Hvor lenge opplysningene lagres|How long the data is kept)$/ }))
    .getAllByRole("listitem")
    .map((item) => item.textContent);

test("under the institution's text: how long each kind is kept, the defaults, in both languages", async () => {
  await renderRoute({ module: privacy, path: "/privacy-policy" });
  expect(periods()).toContain("Svar og kommentarer: slettes 365 dager etter at klassen er slutt");
  expect(periods()).toContain("Personer uten rolle eller klasse: anonymiseres 730 dager etter siste innlogging");
  expect(periods()).toHaveLength(9);
  expect(screen.getByText(/vises som «Slettet bruker»/)).toBeTruthy();

  cleanup();
  await renderRoute({ module: privacy, path: "/privacy-policy", language: "en" });
  expect(periods()).toContain("Answers and comments: deleted 365 days after the class ends");
});

test("the periods are the institution file's own", async () => {
  const example = JSON.parse(fs.readFileSync(path.resolve("app/institutions/fjordbyen.json"), "utf8")) as object;
  const file = path.join(app.dir, "institution.json");
  fs.writeFileSync(
    file,
    JSON.stringify({ ...example, retention: { answers: { keepDays: 90 }, codes: { keepDays: 1 } } }),
  );
  process.env.INSTITUTION_FILE = file;
  resetEnvForTests();
  await renderRoute({ module: privacy, path: "/privacy-policy" });
  expect(periods()).toContain("Svar og kommentarer: slettes 90 dager etter at klassen er slutt");
  expect(periods()).toContain("Engangskoder for innlogging: slettes 1 dag etter at de ble laget");
});
