import { screen, within } from "@testing-library/react";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { schemes, forms } from "~/services/platform/db/schema";
import { classIdOf, cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { actionDataOf, descriptionOf, loaderDataOf, renderRoute } from "~/test/render-route";
import * as answersApi from "../api/answers";
import * as page from "./form-page";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
let params: Record<string, string>;
let path: string;
let cookie: string;

beforeAll(async () => {
  app = await startTestApp();
  const classId = await classIdOf(db(), "SYK2001");
  const [{ id: formId }] = await db()
    .select({ id: forms.id })
    .from(forms)
    .where(eq(forms.name, "Vurdering av kliniske kompetanser"));
  const [{ id: schemeId }] = await db()
    .select({ id: schemes.id })
    .from(schemes)
    .where(and(eq(schemes.classId, classId), eq(schemes.isMidSemester, true)));
  const studentUserId = await userIdOf(db(), "student06@example.org");
  params = {
    classId: String(classId),
    formId: String(formId),
    schemeId: String(schemeId),
    studentUserId: String(studentUserId),
  };
  path = `/student/${studentUserId}/form/${formId}/class/${classId}/assignment/${schemeId}`;
  cookie = await cookieActingAs(db(), "student06@example.org", ROLE.Student);
});

afterAll(async () => {
  await stopTestApp(app);
});

// The page's autosave, answered by the real endpoint.
const endpoints = [{ pattern: "/api/answers", module: answersApi }];
const pattern = "/student/:studentUserId/form/:formId/class/:classId/assignment/:schemeId";

test("a question group with its radios; a grade chosen and “Neste” goes on to the next group, which says how far the person is", async () => {
  const view = await renderRoute({
    module: page,
    path: `${path}?group=2&from=%2Fstudent%2Fforms`,
    pattern,
    params,
    cookie,
    endpoints,
  });
  expect(screen.getByRole("button", { name: "Neste" })).toBeTruthy();
  expect(screen.getByRole("button", { name: "Forrige" })).toBeTruthy();
  expect(screen.getByRole("button", { name: "Lagre og avslutt" })).toBeTruthy();
  const groupName = screen.getByRole("heading", { level: 2 }).textContent;
  const firstQuestion = screen.getByRole("group", { name: /^1\. / });
  const radios = within(firstQuestion).getAllByRole("radio");
  expect(radios.length).toBeGreaterThan(2);
  expect(radios.every((r) => !(r as HTMLInputElement).checked)).toBe(true);
  expect(screen.getByText(/^Ikke sendt ennå\. Du har gitt karakter på 0 av \d+ spørsmål\./)).toBeTruthy();

  await view.user.click(radios[1]);
  await view.user.click(screen.getByRole("button", { name: "Neste" }));
  await expect.poll(() => view.location()).toMatch(/[?&]group=3/);
  await expect.poll(() => screen.getByRole("heading", { level: 2 }).textContent).not.toBe(groupName);
  expect(screen.getByText(/^Ikke sendt ennå\. Du har gitt karakter på 1 av \d+ spørsmål\./)).toBeTruthy();
});

test("“Send skjemaet” with grades missing: the error summary and the list say how many and which, by part and question", async () => {
  const data = (await loaderDataOf(page, path, cookie, params)) as {
    view: { pageCount: number };
  };
  const last = data.view.pageCount;
  const view = await renderRoute({
    module: page,
    path: `${path}?group=${last}&from=%2Fstudent%2Fforms`,
    pattern,
    params,
    cookie,
    endpoints,
  });
  await view.user.click(screen.getByRole("button", { name: "Send skjemaet" }));

  const summary = await screen.findByRole("alert");
  const count = /^(\d+) spørsmål mangler karakter$/.exec(within(summary).getByRole("link").textContent ?? "");
  expect(count).not.toBeNull();
  const banner = screen.getByRole("heading", {
    name: `${count![1]} spørsmål mangler karakter`,
    level: 2,
  }).parentElement!.parentElement!;
  expect(within(banner).getByText(/^Du må gi karakter på alle spørsmålene før du sender\./)).toBeTruthy();
  const items = within(banner).getAllByRole("link");
  expect(items).toHaveLength(Number(count![1]));
  expect(items[0].textContent).toMatch(/^Del 2: .+/);
  expect(items[0].getAttribute("href")).toMatch(/[?&]group=2/);
  expect(view.location()).toContain(`group=${last}`);
});

test("a comment over 2000 characters (posted without the page's limit): the summary links to the comment, which says so and keeps the text", async () => {
  type Question = { id: number; token: string };
  const data = (await loaderDataOf(page, `${path}?group=3`, cookie, params)) as {
    view: { page: number; group: { questions: Question[] } };
  };
  const [q1, q2] = data.view.group.questions;
  const long = "ø".repeat(2001);
  const fields: Record<string, string> = { page: String(data.view.page), intent: "next" };
  for (const q of data.view.group.questions) {
    fields[`b:${q.id}`] = q.token;
    fields[`c:${q.id}`] = "";
  }
  Object.assign(fields, { [`a:${q1.id}`]: "2", [`c:${q1.id}`]: long, [`a:${q2.id}`]: "3" });
  const actionData = await actionDataOf(page, `${path}?group=3`, fields, cookie, params);
  await renderRoute({ module: page, path: `${path}?group=3`, pattern, params, cookie, endpoints, actionData });

  const message = "Kommentaren kan ha høyst 2000 tegn. Kort den ned, så lagres den.";
  const link = within(screen.getByRole("alert")).getByRole("link", { name: message });
  expect(link.getAttribute("href")).toBe(`#c-${q1.id}`);
  // The first question's "Kommentar" (each question has one).
  const comment = screen.getAllByLabelText("Kommentar")[0] as HTMLTextAreaElement;
  expect(comment.id).toBe(`c-${q1.id}`);
  expect(descriptionOf(comment)).toContain(`Feil: ${message}`);
  expect(comment.value).toBe(long);
  const firstQuestion = screen.getByRole("group", { name: /^1\. / });
  expect(
    (
      within(firstQuestion)
        .getAllByRole("radio")
        .find((r) => (r as HTMLInputElement).checked) as HTMLInputElement
    ).value,
  ).toBe("2");
});

test("“Lagre og avslutt” saves and leaves with the message “Lagret!”", async () => {
  const view = await renderRoute({
    module: page,
    path: `${path}?from=%2Fstudent%2Fforms`,
    pattern,
    params,
    cookie,
    endpoints,
  });
  await view.user.click(screen.getByRole("button", { name: "Lagre og avslutt" }));
  await expect.poll(() => view.flashText()).toBe("Lagret!");
  expect(view.location()).toBe("/student/forms");
});
