import { expect, test } from "vitest";
import { idParam, notFound, parseId } from "./ids";

test("parseId takes positive serial ids only", () => {
  expect(parseId("1")).toBe(1);
  expect(parseId("12")).toBe(12);
  expect(parseId("2147483647")).toBe(2_147_483_647);
  for (const bad of [undefined, null, "", "0", "-1", "1.5", "abc", "1e3", " 1", "2147483648", "99999999999"]) {
    expect(parseId(bad), String(bad)).toBeNull();
  }
});

test("idParam and notFound answer 404 for anything that is not a known id", () => {
  expect(idParam("7")).toBe(7);
  for (const thrown of [() => idParam("x"), () => idParam(undefined), () => notFound()]) {
    try {
      thrown();
      throw new Error("did not throw");
    } catch (error) {
      expect(error).toBeInstanceOf(Response);
      expect((error as Response).status).toBe(404);
    }
  }
});
