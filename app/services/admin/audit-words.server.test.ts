import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import resources from "~/locales";
import { ROLE } from "~/services/platform/db/schema";
import { detailValue, type Translate } from "./audit-words.server";

const none = { classes: new Map(), semesters: new Map(), forms: new Map(), users: new Map([[7, "Ingrid Haugen"]]) };
const translators: Record<"nb" | "en", Translate> = { nb: (k) => k, en: (k) => k };

beforeAll(async () => {
  for (const lng of ["nb", "en"] as const) {
    const i18n = i18next.createInstance();
    await i18n.init({
      resources,
      lng,
      ns: ["privacyData", "common"],
      defaultNS: "privacyData",
      interpolation: { escapeValue: false },
    });
    translators[lng] = i18n.getFixedT(lng, "privacyData");
  }
});

describe("the audit log's details in words", () => {
  it("names the role chosen, not its number", () => {
    expect(detailValue("roleId", ROLE.Teacher, none, translators.nb)).toBe("Praksislærer");
    expect(detailValue("role", ROLE.Admin, none, translators.en)).toBe("Administrator");
  });

  it("names the way of logging in, and keeps a way it does not know as it is", () => {
    expect(detailValue("method", "email-code", none, translators.nb)).toBe("e-postkode");
    expect(detailValue("method", "email-code", none, translators.en)).toBe("e-mail code");
    expect(detailValue("method", "feide", none, translators.nb)).toBe("Feide");
    expect(detailValue("method", "smartcard", none, translators.nb)).toBe("smartcard");
  });

  it("names a person by their name", () => {
    expect(detailValue("teacherUserId", 7, none, translators.nb)).toBe("Ingrid Haugen");
  });
});
