import { screen, within } from "@testing-library/react";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import {
  classIdOf,
  clearOutbox,
  cookieActingAs,
  silenceMailLog,
  startTestApp,
  stopTestApp,
  userIdOf,
} from "~/test/app";
import { actionDataOf, descriptionOf, renderRoute } from "~/test/render-route";
import * as autosave from "../api/warning";
import * as warningPage from "./warning";
import * as givePage from "./warning-give";
// Loaded now, as a browser has the form's checks long before a person presses anything (the page
// fetches them once it is interactive): a late arrival would redraw the form under the person's hands.
import "./warning.schema";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
let cookie: string;
let path: string;
let params: Record<string, string>;
const pattern = "/teacher/class/:classId/student/:studentUserId/warning";

beforeAll(async () => {
  app = await startTestApp();
  const classId = await classIdOf(db(), "SYK2002");
  const studentUserId = await userIdOf(db(), "student15@example.org");
  cookie = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
  path = `/teacher/class/${classId}/student/${studentUserId}/warning`;
  params = { classId: String(classId), studentUserId: String(studentUserId) };
});

afterAll(async () => {
  await stopTestApp(app);
});

beforeEach(() => {
  silenceMailLog();
  clearOutbox();
});

test("“Gi varsel” without the pass requirement (no JavaScript): the summary and the field say what is missing, and the typed text stays", async () => {
  const actionData = await actionDataOf(
    warningPage,
    path,
    {
      intent: "submit",
      warningId: "",
      comment: "Ikke fulgt prosedyren.",
      passRequirement: "",
      passRequirementSummary: "Kort",
    },
    cookie,
    params,
  );
  await renderRoute({
    module: warningPage,
    path,
    pattern,
    params,
    cookie,
    actionData,
  });

  const summary = screen.getByRole("alert");
  expect(
    within(summary)
      .getAllByRole("link")
      .map((a) => a.textContent),
  ).toEqual(["Skriv hva som kreves for å bestå praksis"]);
  const field = screen.getByLabelText("Krav for å bestå praksis");
  expect(within(summary).getByRole("link").getAttribute("href")).toBe(`#${field.id}`);
  expect(descriptionOf(field)).toContain("Feil: Skriv hva som kreves for å bestå praksis");
  expect((screen.getByLabelText("Begrunnelse") as HTMLTextAreaElement).value).toBe("Ikke fulgt prosedyren.");
});

test("a teacher saves a draft (“Utkastet er lagret.”), fills in all three, gives it and is told the student has been mailed", async () => {
  const view = await renderRoute({
    module: warningPage,
    path,
    pattern,
    params,
    cookie,
    next: [{ pattern: `${pattern}/give`, module: givePage }],
    endpoints: [
      {
        pattern: "/api/classes/:classId/students/:studentUserId/warning",
        module: autosave,
      },
    ],
  });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toContain("Varsel");

  await view.user.type(screen.getByLabelText("Begrunnelse"), "Du har flere ganger ikke fulgt prosedyren.");
  await view.user.click(screen.getByRole("button", { name: "Lagre utkast" }));
  await expect.poll(() => view.flashText()).toBe("Utkastet er lagret.");
  expect(view.location()).toBe(path);

  // Giving waits until all three are written.
  expect((screen.getByRole("button", { name: "Gi varsel" }) as HTMLButtonElement).disabled).toBe(true);
  await view.user.type(screen.getByLabelText("Krav for å bestå praksis"), "Følg prosedyren ved hver utdeling.");
  await view.user.type(screen.getByLabelText("Oppsummering av kravene"), "Følg prosedyren.");
  await expect
    .poll(() => (screen.getByRole("button", { name: "Gi varsel" }) as HTMLButtonElement).disabled)
    .toBe(false);
  await view.user.click(screen.getByRole("button", { name: "Gi varsel" }));

  await screen.findByRole("heading", {
    level: 1,
    name: /Vil du gi varselet til Olivia Jacobsen\?/,
  });
  expect(
    screen.getByRole("heading", {
      level: 2,
      name: "Slik ser studenten varselet",
    }),
  ).toBeTruthy();
  await view.user.click(screen.getByRole("button", { name: "Gi varselet nå" }));
  await expect
    .poll(() => view.flashText())
    .toBe("Varselet er gitt til Olivia Jacobsen, som har fått beskjed på e-post.");
  expect(view.location()).toBe(path);
});
