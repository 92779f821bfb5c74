import { describe, expect, test } from "vitest";
import { afterMidSave, midStepOf } from "./mid-steps";

describe("midStepOf: the step a post of the mid-semester form asks for", () => {
  test.each([
    [{ step: null, confirmed: null }, "check"],
    [{ step: null, confirmed: "no" }, "check"],
    [{ step: null, confirmed: "yes" }, "confirm"],
    [{ step: "back", confirmed: "yes" }, "back"],
    [{ step: "back", confirmed: null }, "back"],
    [{ step: "forward", confirmed: "yes" }, "confirm"],
  ] as const)("%o → %s", (posted, step) => {
    expect(midStepOf(posted)).toBe(step);
  });
});

describe("afterMidSave: what follows a confirming post's save", () => {
  test("saved", () => {
    expect(afterMidSave({ ok: true })).toEqual({ next: "saved" });
  });

  test("the acknowledgement of forms not sent missing: the confirmation again, saying so", () => {
    expect(
      afterMidSave({ ok: false, error: "invalid", fieldErrors: { unsentAcknowledged: "acknowledgeUnsent" } }),
    ).toEqual({ next: "confirmAgain", unacknowledged: true });
  });

  test("forms not sent where the institution requires them sent: the confirmation again", () => {
    expect(afterMidSave({ ok: false, error: "state", reason: "formsNotSent" })).toEqual({
      next: "confirmAgain",
      unacknowledged: false,
    });
  });

  test("any other refusal stays a refusal", () => {
    const dateInFuture = {
      ok: false,
      error: "invalid",
      fieldErrors: { midSemesterCompletedDate: "dateInFuture" },
    } as const;
    expect(afterMidSave(dateInFuture)).toEqual({ next: "refused", refusal: dateInFuture });
    const locked = { ok: false, error: "state", reason: "midConfirmed" } as const;
    expect(afterMidSave(locked)).toEqual({ next: "refused", refusal: locked });
    expect(afterMidSave({ ok: false, error: "notAllowed" })).toEqual({
      next: "refused",
      refusal: { ok: false, error: "notAllowed" },
    });
  });
});
