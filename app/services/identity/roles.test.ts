import { expect, test } from "vitest";
import { areaOfPath, resolveActiveRole, ROLE, safeRedirect } from "./roles";

test("resolveActiveRole keeps a chosen role the user still holds", () => {
  expect(resolveActiveRole([ROLE.Admin, ROLE.Teacher], ROLE.Teacher)).toBe(ROLE.Teacher);
});

test("resolveActiveRole picks the only role, and none when there are several", () => {
  expect(resolveActiveRole([ROLE.Student], null)).toBe(ROLE.Student);
  expect(resolveActiveRole([ROLE.Student, ROLE.Student], undefined)).toBe(ROLE.Student);
  expect(resolveActiveRole([ROLE.Admin, ROLE.Teacher], null)).toBeNull();
  expect(resolveActiveRole([], null)).toBeNull();
});

test("resolveActiveRole drops a chosen role the user no longer holds", () => {
  expect(resolveActiveRole([ROLE.Teacher], ROLE.Admin)).toBe(ROLE.Teacher);
  expect(resolveActiveRole([ROLE.Teacher, ROLE.Supervisor], ROLE.Admin)).toBeNull();
});

test("resolveActiveRole ignores unknown role ids", () => {
  expect(resolveActiveRole([ROLE.Supervisor, 99], null)).toBe(ROLE.Supervisor);
  expect(resolveActiveRole([ROLE.Supervisor], 99)).toBe(ROLE.Supervisor);
});

test("areaOfPath maps the first path segment to its role", () => {
  expect(areaOfPath("/teacher/class/3")).toBe(ROLE.Teacher);
  expect(areaOfPath("/admin")).toBe(ROLE.Admin);
  expect(areaOfPath("/student/")).toBe(ROLE.Student);
  expect(areaOfPath("/supervisor/x")).toBe(ROLE.Supervisor);
  expect(areaOfPath("/Teacher")).toBe(ROLE.Teacher);
  expect(areaOfPath("/advisor")).toBeNull();
  expect(areaOfPath("/")).toBeNull();
  expect(areaOfPath("/settings")).toBeNull();
  expect(areaOfPath("/teachers")).toBeNull();
});

test("safeRedirect accepts same-site paths with query and hash", () => {
  expect(safeRedirect("/teacher?x=1")).toBe("/teacher?x=1");
  expect(safeRedirect("/student/form#q2")).toBe("/student/form#q2");
});

test("safeRedirect falls back for anything that could leave the site", () => {
  for (const target of [
    "//evil.com",
    "/\\evil",
    "/\\/evil.com",
    "https://evil.com",
    "javascript:alert(1)",
    "evil.com",
    "/teacher\n/x",
    "/\t/evil.com",
    "/te\u0000acher",
    "/ok\u007f",
    "/" + "a".repeat(2001),
    "",
  ]) {
    expect(safeRedirect(target, "/fallback"), JSON.stringify(target)).toBe("/fallback");
  }
});

test("safeRedirect falls back for missing or non-string values", () => {
  expect(safeRedirect(null)).toBe("/");
  expect(safeRedirect(undefined, "")).toBe("");
  expect(safeRedirect(new File(["x"], "x.txt"), "/home")).toBe("/home");
});

test("safeRedirect keeps a long but allowed path", () => {
  const path = "/" + "a".repeat(1999);
  expect(safeRedirect(path)).toBe(path);
});

test("safeRedirect falls back when dot segments would normalise a path into another host", () => {
  for (const target of ["/.//evil.com", "/a/..//evil.com", "/%2e//evil.com", "/./\\evil.com"]) {
    expect(safeRedirect(target, "/fallback"), JSON.stringify(target)).toBe("/fallback");
  }
});
