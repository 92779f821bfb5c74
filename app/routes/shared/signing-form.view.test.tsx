import { screen, within } from "@testing-library/react";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { classIdOf, cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { calendar } from "~/test/calendar";
import { actionDataOf, descriptionOf, renderRoute } from "~/test/render-route";
import * as page from "./signing-form";
// Loaded now, as a browser has the form's checks long before a person presses anything (the page
// fetches them once it is interactive): a late arrival would redraw the form under the person's hands.
import "~/services/signing/signing-form.schema";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
let cookie: string;
let path: string;
let params: Record<string, string>;
const pattern = "/teacher/class/:classId/student/:studentUserId/signingform";

beforeAll(async () => {
  app = await startTestApp();
  const classId = await classIdOf(db(), "SYK2001");
  const studentUserId = await userIdOf(db(), "student05@example.org");
  cookie = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  path = `/teacher/class/${classId}/student/${studentUserId}/signingform`;
  params = { classId: String(classId), studentUserId: String(studentUserId) };
});

afterAll(async () => {
  await stopTestApp(app);
});

const saveMid = "Lagre og bekreft midtveisvurderingen";

test("the teacher's mid-semester part: unanswered, it says what is missing; answered, it asks once more, names the forms not sent, and is saved", async () => {
  const view = await renderRoute({ module: page, path, pattern, params, cookie });
  expect(screen.getByRole("heading", { level: 2, name: "Midtveisvurdering" })).toBeTruthy();

  // Nothing answered: the server's answer, read in the summary and at each question.
  await view.user.click(screen.getByRole("button", { name: saveMid }));
  const summary = await screen.findByRole("alert");
  const messages = within(summary)
    .getAllByRole("link")
    .map((a) => a.textContent);
  expect(messages).toEqual(
    expect.arrayContaining([
      "Svar på om arbeidet med de spesifikke kompetanseområdene er påbegynt.",
      "Svar på om studenten har gitt tilbakemelding.",
      "Skriv inn datoen for midtveisvurderingen.",
    ]),
  );
  const begun = screen.getByRole("group", { name: /Er arbeidet med de spesifikke kompetanseområdene påbegynt\?/ });
  expect(begun.textContent).toContain("Svar på om arbeidet med de spesifikke kompetanseområdene er påbegynt.");
  expect(descriptionOf(screen.getByLabelText("Dato for midtveisvurderingen"))).toContain(
    "Skriv inn datoen for midtveisvurderingen.",
  );

  await view.user.click(within(begun).getByRole("radio", { name: "Ja" }));
  const feedback = screen.getByRole("group", {
    name: /Har studenten gitt tilbakemelding på praksisstudiet og veiledningen\?/,
  });
  await view.user.click(within(feedback).getByRole("radio", { name: "Ikke relevant" }));
  const date = screen.getByLabelText("Dato for midtveisvurderingen");
  await view.user.clear(date);
  await view.user.type(date, calendar.classes.SYK2001.midSemesterDate);
  await view.user.click(screen.getByRole("button", { name: saveMid }));

  // Asked once more (a dialog with JavaScript), with the forms not sent named; ticked, it is saved.
  // Inside the open <dialog> the queries go by text and label: happy-dom at times gives its
  // controls no accessible name for role queries (the page's markup is right: label for = id).
  await screen.findByRole("heading", { name: /^Vil du bekrefte midtveisvurderingen for / });
  await view.settled();
  expect(
    await screen.findByText(
      "Vurdering av kliniske kompetanser: ikke sendt av studenten, praksisveileder og praksislærer",
    ),
  ).toBeTruthy();
  await view.user.click(
    await screen.findByLabelText("Jeg bekrefter midtveisvurderingen selv om ikke alle skjemaene er sendt"),
  );
  await view.user.click(await screen.findByText("Ja, bekreft midtveisvurderingen", { selector: "button" }));
  await expect.poll(() => view.flashText()).toBe("Signeringsskjemaet er lagret.");
  expect(view.location()).toBe(path);
});

test("confirming without ticking that forms are not sent (no JavaScript): the confirmation comes back saying to tick the box", async () => {
  const fields = {
    intent: "saveMid",
    midSemesterSpecificCompetenceAreasBegun: "yes",
    midSemesterStudentHasGivenFeedback: "notRelevant",
    midSemesterCompletedDate: calendar.classes.SYK2001.midSemesterDate,
    confirmed: "yes",
  };
  const student = await userIdOf(db(), "student06@example.org");
  const other = { ...params, studentUserId: String(student) };
  const otherPath = path.replace(params.studentUserId, String(student));
  const actionData = await actionDataOf(page, otherPath, fields, cookie, other);
  await renderRoute({ module: page, path: otherPath, pattern, params: other, cookie, actionData });
  expect(screen.getByRole("heading", { name: /^Vil du bekrefte midtveisvurderingen for / })).toBeTruthy();
  const box = screen.getByRole("checkbox", {
    name: "Jeg bekrefter midtveisvurderingen selv om ikke alle skjemaene er sendt",
  });
  expect(descriptionOf(box) + (box.closest("fieldset")?.textContent ?? "")).toContain(
    "Kryss av for at du går videre selv om ikke alle skjemaene er sendt.",
  );
});
