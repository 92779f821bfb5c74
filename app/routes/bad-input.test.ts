import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { classes, formQuestionGroups, formQuestions, forms, subjects } from "~/services/platform/db/schema";
import { startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { cookieOf, type Principal } from "~/test/principals";
import { MAX_FIELD_REPEATS, MAX_FORM_BYTES, MAX_FORM_FIELDS, readFormData } from "~/services/platform/request.server";
import { callAction, TEST_ORIGIN } from "~/test/route";
import {
  importRoute,
  permissionMatrix,
  routeRows,
  seedIds,
  standardParams,
  urlOf,
  type MatrixEntry,
  type RouteRow,
} from "~/test/route-matrix";

/**
 * The bad-input sweep: every action of app/routes.ts (from the table, so a new one is swept
 * too) gets malformed posts from a user allowed to post there (app/test/route-matrix.ts): missing
 * fields, wrong types, unknown and bare intents, huge values, control and odd unicode characters,
 * ids of other objects and impossible ids in fields and params, repeated fields, files. None may
 * answer 5xx, throw, or log an error: bad input is the client's mistake, so it gets a 4xx, never a 500.
 * Deterministic: the choices come from a seeded generator.
 */

let app: Awaited<ReturnType<typeof startTestApp>>;
let matrix: Record<string, MatrixEntry>;
let params: Record<string, string>;
let foreign: { params: Record<string, string>; fields: Record<string, string> };
let questionId: number;

const actionRows = routeRows().filter((row) => /export (async )?function action\b/.test(source(row)));
let requestCount = 0;

beforeAll(async () => {
  app = await startTestApp({ FEIDE_CLIENT_ID: "id", FEIDE_CLIENT_SECRET: "secret" });
  const db = app.database.db;
  const ids = await seedIds(db);
  matrix = permissionMatrix(ids);
  params = standardParams(ids);
  const [classB] = await db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .where(eq(subjects.subjectCode, "SYK2002"));
  const [otherForm] = await db.select({ id: forms.id }).from(forms).where(eq(forms.isMainForm, false));
  const student13 = String(await userIdOf(db, "student13@example.org"));
  // Ids of objects the poster has nothing to do with: class B, a student of it, a side form, a supervisor of it.
  foreign = {
    params: {
      ...params,
      classId: String(classB.id),
      studentUserId: student13,
      userId: student13,
      formId: String(otherForm.id),
    },
    fields: {
      classId: String(classB.id),
      studentUserId: student13,
      userId: student13,
      formId: String(otherForm.id),
      id: student13,
      warningId: "1",
      extraUserId: String(await userIdOf(db, "veileder3@example.org")),
    },
  };
  const [question] = await db
    .select({ id: formQuestions.id })
    .from(formQuestions)
    .innerJoin(formQuestionGroups, eq(formQuestionGroups.id, formQuestions.groupId))
    .where(and(eq(formQuestionGroups.formId, ids.mainForm)))
    .orderBy(formQuestions.id)
    .limit(1);
  questionId = question.id;
});
afterAll(() => {
  console.info(`bad-input sweep: ${requestCount} requests to ${actionRows.length} actions`);
  return stopTestApp(app);
});

function source(row: RouteRow): string {
  return fs.readFileSync(path.resolve("app", row.file), "utf8");
}

/** A small seeded generator (mulberry32), so every run sends the same requests. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const sample = <T>(list: readonly T[], n: number): T[] => {
    const rest = [...list];
    const out: T[] = [];
    while (out.length < n && rest.length > 0) out.push(rest.splice(Math.floor(next() * rest.length), 1)[0]);
    return out;
  };
  return { pick, sample };
}

function hash(text: string): number {
  let h = 2166136261;
  for (const char of text) h = Math.imul(h ^ char.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** The field names and intents the module reads or renders, as its source names them. */
function fieldsOf(row: RouteRow): { fields: string[]; intents: string[] } {
  const text = source(row);
  const all = (pattern: RegExp, group = 1) => [...text.matchAll(pattern)].map((m) => m[group]);
  const fields = new Set([
    ...all(/name="([A-Za-z][\w:.[\]-]*)"/g),
    ...all(/\.get(All)?\("([A-Za-z][\w:.-]*)"\)/g, 2),
    // Keys of the zod schemas the action parses (over-inclusive; an unknown field is bad input too).
    ...all(/^\s+([A-Za-z]\w*): (?:z\.|\w+Field\()/gm),
  ]);
  const intents = new Set([
    ...all(/name="intent" value="([^"]+)"/g),
    ...all(/intent\w* === "([^"]+)"/g),
    ...all(/z\.literal\("([^"]+)"\)/g),
    ...[...text.matchAll(/z\.enum\(\[([^\]]+)\]\)/g)].flatMap((m) => [...m[1].matchAll(/"([^"]+)"/g)].map((n) => n[1])),
  ]);
  return { fields: [...fields].sort(), intents: [...intents].sort() };
}

/** Intents that would end the poster's session or place, or delete what later rows post to. */
const DESTRUCTIVE = new Set(["leave", "decline", "logout", "deactivate", "delete", "cancel"]);
const UNKNOWN_INTENTS = ["", "__proto__", "constructor", "DELETE", "save'; drop table users; --", "i".repeat(300)];
const WRONG = [
  "abc",
  "-1",
  "0",
  "1.5",
  "1e3",
  "2147483648",
  "99999999999999999999",
  "true",
  "null",
  "[object Object]",
  '{"a":1}',
  " 1 ",
  "0x10",
];
/** NUL and other controls, a lone surrogate, RTL override and mark, zero-width joiner, emoji, combining marks, BOM, line separators. */
const NASTY =
  "a\u0000b\u0001\u0008\t\r\n\u001b[31m\ud800\u202e\u200f\u200d👩‍⚕️🏥e\u0301\u0338\ufeff\u2028\u2029\u0085<script>alert(1)</script>";
const BAD_PARAMS = ["abc", "-1", "0", "1.5", "2147483648", "99999999999999999999", "\u202e1", "1%00", " 1"];
const MEGABYTE = "x".repeat(1024 * 1024);

interface Case {
  label: string;
  fields: [string, string | File][];
  params: Record<string, string>;
}

function casesFor(row: RouteRow, entry: MatrixEntry): Case[] {
  const random = generator(hash(row.id));
  const { fields: named, intents } = fieldsOf(row);
  const base = Object.entries(entry.body ?? {});
  const answerFields =
    row.file.includes("form-page") || row.file.includes("api/answers")
      ? [`b:${questionId}`, `a:${questionId}`, `c:${questionId}`]
      : [];
  const names = [...new Set([...base.map(([name]) => name), ...named, ...answerFields])];
  const every = (value: (name: string) => string): [string, string][] => names.map((name) => [name, value(name)]);
  const withBase = (extra: [string, string | File][]): [string, string | File][] => {
    const given = new Set(extra.map(([name]) => name));
    return [...base.filter(([name]) => !given.has(name)), ...extra];
  };
  const p = params;
  const cases: Case[] = [
    { label: "an empty body", fields: [], params: p },
    { label: "the plausible body", fields: base, params: p },
    { label: "every field 1 (an id of other objects)", fields: every(() => "1"), params: p },
    ...random.sample(names, 2).map((missing) => ({
      label: `every field but ${missing}`,
      fields: every(() => "1").filter(([name]) => name !== missing),
      params: p,
    })),
    ...[0, 1].map((i) => ({
      label: `every field a wrong value (${i})`,
      fields: every(() => random.pick(WRONG)),
      params: p,
    })),
    { label: "every field -1", fields: every(() => "-1"), params: p },
    { label: "every field past int4", fields: every(() => "2147483648"), params: p },
    {
      label: "every field control and odd unicode characters",
      fields: [...every(() => NASTY), [NASTY, NASTY]],
      params: p,
    },
    ...random.sample(names.length > 0 ? names : ["x"], 1).map((name) => ({
      label: `1 MB in ${name}`,
      fields: withBase([[name, MEGABYTE]]),
      params: p,
    })),
    { label: "every field 5000 characters", fields: every(() => "é".repeat(5000)), params: p },
    {
      label: "every field three times",
      fields: names.flatMap(
        (name) =>
          [
            [name, "1"],
            [name, "abc"],
            [name, ""],
          ] as [string, string][],
      ),
      params: p,
    },
    {
      label: "a field 10 000 times",
      fields: withBase(Array.from({ length: 10_000 }, (_, i) => [names[0] ?? "x", String(i)] as [string, string])),
      params: p,
    },
    {
      label: "every field a file",
      fields: names.map((name) => [name, new File(["1"], "1.txt", { type: "text/plain" })]),
      params: p,
    },
    {
      label: "ids of other objects in the fields",
      fields: withBase(Object.entries(foreign.fields).filter(([name]) => names.includes(name))),
      params: p,
    },
    { label: "ids of other objects in the params", fields: base, params: { ...foreign.params } },
    ...random.sample(UNKNOWN_INTENTS, 2).map((intent) => ({
      label: `the unknown intent ${JSON.stringify(intent.slice(0, 40))}`,
      fields: withBase([["intent", intent]]),
      params: p,
    })),
    ...random
      .sample(
        intents.filter((intent) => !DESTRUCTIVE.has(intent)),
        4,
      )
      .map((intent) => ({
        label: `the intent ${intent} with nothing else`,
        fields: [["intent", intent]] as [string, string][],
        params: p,
      })),
  ];
  for (const name of [...row.pattern.matchAll(/:(\w+)/g)].map((m) => m[1])) {
    for (const value of random.sample(BAD_PARAMS, 2)) {
      cases.push({
        label: `the param ${name} = ${JSON.stringify(value)}`,
        fields: base,
        params: { ...p, [name]: value },
      });
    }
  }
  return cases;
}

function requestOf(row: RouteRow, item: Case, cookie: string): Request {
  const headers = new Headers({ Origin: TEST_ORIGIN, "x-test-client-address": "192.0.2.1" });
  if (cookie) headers.set("Cookie", cookie);
  const hasFile = item.fields.some(([, value]) => typeof value !== "string");
  let body: FormData | URLSearchParams;
  if (hasFile) {
    body = new FormData();
    for (const [name, value] of item.fields) body.append(name, value);
  } else {
    body = new URLSearchParams(item.fields as [string, string][]);
  }
  return new Request(new URL(urlOf(row, item.params), TEST_ORIGIN), { method: "POST", headers, body });
}

/** Who posts: the matrix's poster for the action; a public action is posted to logged out. */
function posterOf(entry: MatrixEntry): Principal {
  if (entry.poster) return entry.poster;
  const rule = entry.action;
  if (!rule || "public" in rule) return "anon";
  return rule.allow[0];
}

test("the sweep finds the actions of the table", () => {
  expect(actionRows.length).toBeGreaterThan(30);
});

test("every action reads its form through readFormData, which has the limits", () => {
  const direct = actionRows.filter((row) => /\.formData\(\)/.test(source(row))).map((row) => row.id);
  expect(direct, "actions that parse the body themselves").toEqual([]);
});

function formPost(body: BodyInit, type = "application/x-www-form-urlencoded"): Request {
  return new Request(new URL("/login", TEST_ORIGIN), {
    method: "POST",
    headers: { "Content-Type": type },
    body,
    duplex: "half",
  } as RequestInit);
}

async function statusOfReading(request: Request): Promise<number> {
  try {
    await readFormData(request);
    return 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

test("readFormData refuses a body over the limit before it is all read, with or without its length", async () => {
  const big = `email=${"x".repeat(MAX_FORM_BYTES)}`;
  expect(await statusOfReading(formPost(big))).toBe(413);
  const chunked = formPost(new Blob([big]).stream());
  expect(chunked.headers.get("content-length")).toBeNull();
  expect(await statusOfReading(chunked)).toBe(413);
  expect(await statusOfReading(formPost(`email=${"x".repeat(MAX_FORM_BYTES - 100)}`))).toBe(200);
});

test("readFormData refuses more fields than any page has (the form library's parse grows quadratically with repeats)", async () => {
  const repeated = (n: number) => new URLSearchParams(Array.from({ length: n }, (_, i) => ["studentIds", String(i)]));
  expect(await statusOfReading(formPost(repeated(MAX_FIELD_REPEATS)))).toBe(200);
  expect(await statusOfReading(formPost(repeated(MAX_FIELD_REPEATS + 1)))).toBe(413);
  const distinct = (n: number) => new URLSearchParams(Array.from({ length: n }, (_, i) => [`f${i}`, "1"]));
  expect(await statusOfReading(formPost(distinct(MAX_FORM_FIELDS)))).toBe(200);
  expect(await statusOfReading(formPost(distinct(MAX_FORM_FIELDS + 1)))).toBe(413);
  const multipart = new FormData();
  for (let i = 0; i <= MAX_FIELD_REPEATS; i++) multipart.append("studentIds", String(i));
  expect(await statusOfReading(new Request(new URL("/login", TEST_ORIGIN), { method: "POST", body: multipart }))).toBe(
    413,
  );
});

test("staff posting an answer to the student's own group (the demo's self-assessment) are refused: 400, on the page and by the autosave", async () => {
  // questionId is the main form's first question: the self-assessment's, the student's own.
  const posts: [string, Principal, Record<string, string>][] = [
    ["teacher-form", "teacher", {}],
    ["supervisor-form", "supervisor", {}],
    ["routes/api/answers", "teacher", matrix["routes/api/answers"].body ?? {}],
    ["routes/api/answers", "supervisor", matrix["routes/api/answers"].body ?? {}],
  ];
  for (const [id, poster, body] of posts) {
    const row = actionRows.find((r) => r.id === id)!;
    const fields: [string, string][] = [
      ...Object.entries(body),
      ["intent", "next"],
      ["page", "1"],
      [`b:${questionId}`, "0"],
      [`a:${questionId}`, "Mitt svar"],
    ];
    const response = await callAction(
      await importRoute(row),
      requestOf(row, { label: id, fields, params }, await cookieOf(app.database.db, poster)),
      params,
    );
    requestCount++;
    expect(response.status, `${id} as ${poster}`).toBe(400);
  }
});

test.each(actionRows.map((row) => [row.id, row] as const))("%s", async (id, row) => {
  const entry = matrix[id];
  if (!entry?.action)
    throw new Error(`the action of "${id}" has no rule in the permission matrix (app/test/route-matrix.ts)`);
  const mod = await importRoute(row);
  const poster = posterOf(entry);
  const errorLog = vi.mocked(console.error);
  let cookie = await cookieOf(app.database.db, poster);
  const failures: string[] = [];
  for (const item of casesFor(row, entry)) {
    if (entry.freshSession) cookie = await cookieOf(app.database.db, poster);
    const logged = errorLog.mock.calls.length;
    requestCount++;
    try {
      const response = await callAction(mod, requestOf(row, item, cookie), item.params);
      if (response.status >= 500)
        failures.push(`${item.label}: ${response.status} ${(await response.text()).slice(0, 200)}`);
      else await response.body?.cancel();
    } catch (error) {
      failures.push(
        `${item.label}: threw ${error instanceof Error ? error.stack?.split("\n").slice(0, 3).join(" ") : String(error)}`,
      );
    }
    if (errorLog.mock.calls.length > logged) {
      failures.push(
        `${item.label}: logged an error: ${errorLog.mock.calls
          .slice(logged)
          .map((c) => String(c[0]).slice(0, 300))
          .join(" | ")}`,
      );
      errorLog.mockClear();
    }
  }
  expect(failures, `as ${poster}`).toEqual([]);
});
