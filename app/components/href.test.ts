import { href as routerHref } from "react-router";
import { expect, test } from "vitest";
import { href } from "./href";

// The patterns as React Router's own href() takes them (its types are per route; here any pattern).
const cases: [string, Record<string, string> | undefined][] = [
  ["/", undefined],
  ["/teacher", undefined],
  ["/teacher/class/:classId", { classId: "12" }],
  [
    "/teacher/class/:classId/student/:studentUserId/form/:formId/assignment/:schemeId",
    { classId: "1", studentUserId: "2", formId: "3", schemeId: "4" },
  ],
  ["/admin/users/:userId?", {}],
  ["/admin/users/:userId?", { userId: "7" }],
  ["/files/*", { "*": "a/b.pdf" }],
  ["/files/*", {}],
  ["/a/", undefined],
  ["/x-y/:some-id", { "some-id": "z" }],
];

test.each(cases)("%s gives what React Router's href gives", (pattern, params) => {
  const theirs = (routerHref as (path: string, params?: object) => string)(pattern, params);
  expect((href as (path: string, params?: object) => string)(pattern, params)).toBe(theirs);
});

test("a param left out is an error, as in React Router's", () => {
  expect(() => (href as (path: string, params?: object) => string)("/teacher/class/:classId", {})).toThrow(
    "requires param 'classId'",
  );
});
