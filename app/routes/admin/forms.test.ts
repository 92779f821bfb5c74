import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { forms } from "~/services/platform/db/schema";
import { fieldName, labelsToText, type FormDraft } from "~/services/admin";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { callAction, callLoader, getPage, postForm } from "~/test/route";
import * as editor from "./form-editor";
import * as list from "./forms";
import { calendar } from "~/test/calendar";
import { flashTextOf } from "~/test/flash-text";

let app: Awaited<ReturnType<typeof startTestApp>>;
let admin: string;
let teacher: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  teacher = await cookieActingAs(app.database.db, "laerer1@example.org", ROLE.Teacher);
});

afterAll(async () => {
  await stopTestApp(app);
});

interface EditorData {
  draft: FormDraft | null;
  mode: "edit" | "preview";
  errors: Record<string, string[]>;
  formError?: string;
}

/** The fields the editor page posts for a draft. */
function fieldsOf(draft: FormDraft, intent: string): Record<string, string> {
  const fields: Record<string, string> = { intent, [fieldName.name]: draft.name };
  if (draft.isMainForm) fields[fieldName.isMainForm] = "on";
  draft.groups.forEach((group, g) => {
    fields[fieldName.group(g, "key")] = group.key;
    if (group.id !== null) fields[fieldName.group(g, "id")] = String(group.id);
    fields[fieldName.group(g, "name")] = group.name;
    fields[fieldName.group(g, "type")] = String(group.type);
    fields[fieldName.group(g, "options")] = labelsToText(group.options);
    group.questions.forEach((question, q) => {
      fields[fieldName.question(g, q, "key")] = question.key;
      if (question.id !== null) fields[fieldName.question(g, q, "id")] = String(question.id);
      fields[fieldName.question(g, q, "text")] = question.text;
      fields[fieldName.question(g, q, "helpText")] = question.helpText;
    });
  });
  return fields;
}

const twoGroups: Record<string, string> = {
  name: "Rutetest",
  "groups[0].key": "n1",
  "groups[0].name": "Gruppe A",
  "groups[0].type": "2",
  "groups[0].options": "Bra\nDårlig",
  "groups[0].questions[0].key": "n2",
  "groups[0].questions[0].text": "A1",
  "groups[0].questions[1].key": "n3",
  "groups[0].questions[1].text": "A2",
  "groups[1].key": "n4",
  "groups[1].name": "Gruppe B",
  "groups[1].type": "1",
};

async function mainFormId(): Promise<number> {
  const [row] = await app.database.db
    .select({ id: forms.id })
    .from(forms)
    .where(eq(forms.name, "Vurdering av kliniske kompetanser"));
  return row.id;
}

async function storedDraft(formId: number): Promise<FormDraft> {
  const response = await callLoader(editor, getPage(`/admin/forms/edit/${formId}`, { cookie: admin }), {
    formId: String(formId),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { draft: FormDraft }).draft;
}

function post(path: string, fields: Record<string, string>, cookie = admin) {
  const formId = /\/edit\/([^/?]+)/.exec(path)?.[1];
  return callAction(editor, postForm(path, fields, { cookie }), formId === undefined ? {} : { formId });
}

test("the list shows main forms and specific-competency forms apart", async () => {
  const response = await callLoader(list, getPage("/admin/forms", { cookie: admin }));
  expect(response.status).toBe(200);
  const body = (await response.json()) as { mainForms: { name: string }[]; specificForms: { name: string }[] };
  expect(body.mainForms.map((f) => f.name)).toEqual(["Vurdering av kliniske kompetanser"]);
  expect(body.specificForms.map((f) => f.name)).toEqual(["Legemiddelhåndtering", "Sårstell og infeksjonsforebygging"]);
});

test("a teacher gets neither the list nor the editor", async () => {
  for (const response of [
    await callLoader(list, getPage("/admin/forms", { cookie: teacher })),
    await callLoader(editor, getPage("/admin/forms/create", { cookie: teacher })),
  ]) {
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
  }
});

test("the create page starts empty; the edit page loads the stored form; unknown or malformed ids are 404", async () => {
  const create = await callLoader(editor, getPage("/admin/forms/create", { cookie: admin }));
  expect(await create.json()).toMatchObject({ formId: null, draft: { name: "", isMainForm: false, groups: [] } });

  const draft = await storedDraft(await mainFormId());
  expect(draft.groups).toHaveLength(5);

  for (const formId of ["999999", "abc", "0", "-1"]) {
    const response = await callLoader(editor, getPage(`/admin/forms/edit/${formId}`, { cookie: admin }), { formId });
    expect(response.status, formId).toBe(404);
  }
});

test("structural buttons answer with the changed draft and store nothing", async () => {
  const before = await app.database.db.select({ id: forms.id }).from(forms);

  const added = await post("/admin/forms/create", { ...twoGroups, intent: "add-question:1" });
  expect(added.status).toBe(200);
  const addedData = (await added.json()) as EditorData;
  expect(addedData.mode).toBe("edit");
  expect(addedData.draft?.groups[1].questions.map((q) => q.text)).toEqual(["Nytt spørsmål"]);

  const moved = (await (
    await post("/admin/forms/create", { ...twoGroups, intent: "move-question-down:0:0" })
  ).json()) as EditorData;
  expect(moved.draft?.groups[0].questions.map((q) => q.text)).toEqual(["A2", "A1"]);

  const group = (await (await post("/admin/forms/create", { ...twoGroups, intent: "add-group" })).json()) as EditorData;
  expect(group.draft?.groups.map((g) => g.name)).toEqual(["Gruppe A", "Gruppe B", "Ny gruppe"]);
  expect(group.draft?.groups[2].options).toHaveLength(6);

  const preview = (await (await post("/admin/forms/create", { ...twoGroups, intent: "preview" })).json()) as EditorData;
  expect(preview.mode).toBe("preview");
  expect(preview.draft?.name).toBe("Rutetest");

  expect(await app.database.db.select({ id: forms.id }).from(forms)).toEqual(before);
});

test("saving a new form stores it and goes to its edit page with 'Lagret!'", async () => {
  const response = await post("/admin/forms/create", { ...twoGroups, isMainForm: "on", intent: "save" });
  expect(response.status).toBe(303);
  const location = response.headers.get("Location") ?? "";
  expect(location).toMatch(/^\/admin\/forms\/edit\/\d+$/);
  expect(await flashTextOf(response)).toBe("Lagret!");

  const draft = await storedDraft(Number(location.split("/").pop()));
  expect(draft.name).toBe("Rutetest");
  expect(draft.isMainForm).toBe(true);
  expect(draft.groups.map((g) => [g.name, g.type])).toEqual([
    ["Gruppe A", 2],
    ["Gruppe B", 1],
  ]);
  expect(draft.groups[0].options).toEqual(["Bra", "Dårlig"]);
  expect(draft.groups[0].questions.map((q) => q.text)).toEqual(["A1", "A2"]);
});

test("missing or over-long fields get messages and a 400, and what was typed comes back", async () => {
  const missing = await post("/admin/forms/create", {
    ...twoGroups,
    name: "",
    "groups[0].name": "",
    "groups[0].options": "",
    "groups[0].questions[1].text": "   ",
    intent: "save",
  });
  expect(missing.status).toBe(400);
  const missingData = (await missing.json()) as EditorData;
  expect(missingData.errors).toEqual({
    name: ["adminForms:errors.nameRequired"],
    "groups[0].name": ["adminForms:errors.groupNameRequired"],
    "groups[0].options": ["adminForms:errors.labelsRequired"],
    "groups[0].questions[1].text": ["adminForms:errors.questionTextRequired"],
  });
  expect(missingData.draft?.groups[0].questions[0].text).toBe("A1");

  const long = "x".repeat(201);
  const tooLong = await post("/admin/forms/create", {
    ...twoGroups,
    name: long,
    "groups[0].questions[0].helpText": "h".repeat(2001),
    intent: "save",
  });
  expect(tooLong.status).toBe(400);
  const tooLongData = (await tooLong.json()) as EditorData;
  expect(tooLongData.errors).toEqual({
    name: ["adminForms:errors.nameTooLong"],
    "groups[0].questions[0].helpText": ["adminForms:errors.helpTextTooLong"],
  });
  expect(tooLongData.draft?.name).toBe(long);
  expect(tooLongData.draft?.groups[1].name).toBe("Gruppe B");
});

test("a post the page never sends is a 400 with a message, not a 500", async () => {
  for (const fields of [
    { ...twoGroups, intent: "launch-rockets" },
    { ...twoGroups },
    { ...twoGroups, "groups[0].key": "<b>", intent: "add-group" },
    { ...twoGroups, "groups[0].id": "nope", intent: "save" },
  ]) {
    const response = await post("/admin/forms/create", fields);
    expect(response.status).toBe(400);
    expect(((await response.json()) as EditorData).formError).toBe("adminForms:errors.malformed");
  }
});

test("editing the main form: reordered and renamed questions keep their ids; a tampered id is refused", async () => {
  const formId = await mainFormId();
  const draft = await storedDraft(formId);
  const [first, second] = draft.groups[1].questions;
  draft.groups[1].questions = [
    { ...second, text: `${second.text} (ny tekst)` },
    first,
    ...draft.groups[1].questions.slice(2),
  ];
  const saved = await post(`/admin/forms/edit/${formId}`, fieldsOf(draft, "save"));
  expect(saved.status).toBe(303);
  expect(saved.headers.get("Location")).toBe(`/admin/forms/edit/${formId}`);
  const after = await storedDraft(formId);
  expect(after.groups[1].questions.slice(0, 2).map((q) => [q.id, q.text])).toEqual([
    [second.id, `${second.text} (ny tekst)`],
    [first.id, first.text],
  ]);

  const medication = await app.database.db
    .select({ id: forms.id })
    .from(forms)
    .where(eq(forms.name, "Legemiddelhåndtering"));
  const foreign = await storedDraft(medication[0].id);
  const tampered = structuredClone(after);
  tampered.groups[1].questions[0] = { ...foreign.groups[0].questions[0] };
  const refused = await post(`/admin/forms/edit/${formId}`, fieldsOf(tampered, "save"));
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as EditorData).formError).toBe("adminForms:errors.foreignIds");
  expect(await storedDraft(formId)).toEqual(after);
});

test("changing the type of an answered group is refused with a message on that group", async () => {
  const formId = await mainFormId();
  const draft = await storedDraft(formId);
  draft.groups[1].type = 1;
  const response = await post(`/admin/forms/edit/${formId}`, fieldsOf(draft, "save"));
  expect(response.status).toBe(400);
  expect(((await response.json()) as EditorData).errors).toEqual({
    "groups[1].type": ["adminForms:errors.typeLockedByAnswers"],
  });
});

test("posting to an unknown form is a 404", async () => {
  for (const intent of ["save", "add-group", "delete"]) {
    const response = await post("/admin/forms/edit/999999", { ...twoGroups, intent });
    expect(response.status, intent).toBe(404);
  }
});

test("a form in use this semester is not deleted (409 with the semester); an unused one is, then gone", async () => {
  const formId = await mainFormId();
  const refused = await post(`/admin/forms/edit/${formId}`, { intent: "delete" });
  expect(refused.status).toBe(409);
  expect(await refused.json()).toEqual({ deleteError: { semesters: [calendar.current.name] } });

  const created = await post("/admin/forms/create", { ...twoGroups, name: "Skal bort", intent: "save" });
  const path = created.headers.get("Location") ?? "";
  const confirm = await callLoader(editor, getPage(`${path}?slett`, { cookie: admin }), {
    formId: path.split("/").pop()!,
  });
  expect(await confirm.json()).toMatchObject({ confirmDelete: true });
  const deleted = await post(path, { intent: "delete" });
  expect(deleted.status).toBe(303);
  expect(deleted.headers.get("Location")).toBe("/admin/forms");
  const gone = await callLoader(editor, getPage(path, { cookie: admin }), { formId: path.split("/").pop()! });
  expect(gone.status).toBe(404);
  expect(await post("/admin/forms/create", { intent: "delete" }).then((r) => r.status)).toBe(400);
});

test("a non-admin's posts are refused with 403 and change nothing", async () => {
  const formId = await mainFormId();
  const before = await storedDraft(formId);
  const adminAsTeacher = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Teacher);
  for (const cookie of [teacher, adminAsTeacher]) {
    for (const [path, fields] of [
      ["/admin/forms/create", { ...twoGroups, intent: "save" }],
      ["/admin/forms/create", { ...twoGroups, intent: "add-group" }],
      [`/admin/forms/edit/${formId}`, fieldsOf({ ...before, name: "Kapret" }, "save")],
      [`/admin/forms/edit/${formId}`, { intent: "delete" }],
    ] as const) {
      const response = await post(path, fields, cookie);
      expect(response.status, `${path} ${fields.intent}`).toBe(403);
    }
  }
  expect(await storedDraft(formId)).toEqual(before);
});
