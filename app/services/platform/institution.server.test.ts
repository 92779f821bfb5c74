import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { EnvError, resetEnvForTests } from "./env.server";
import {
  appName,
  checkInstitutionForUse,
  currentInstitution,
  exampleValues,
  formatOrganisationNumber,
  guidancePdf,
  institutions,
  institutionSchema,
  institutionSource,
  mailFrom,
  publicInstitution,
  readInstitutionFile,
  type Institution,
} from "./institution.server";

const dir = path.resolve("app/institutions");
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));

/** The Brønnøysund check digit: weights 3 2 7 6 5 4 3 2 over the first eight digits, mod 11. */
function validOrganisationNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(value[i]), 0);
  const rest = sum % 11;
  const check = rest === 0 ? 0 : 11 - rest;
  return check !== 10 && check === Number(value[8]);
}

test("the three variant files are all loaded", () => {
  expect(files.sort()).toEqual(["fjordbyen.json", "nordlys.json", "vestkyst.json"]);
  expect(Object.keys(institutions).sort()).toEqual(["fjordbyen", "nordlys", "vestkyst"]);
});

test.each(files)("%s validates and its id matches the file name", (file) => {
  const parsed = institutionSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
  expect(parsed.error).toBeUndefined();
  expect(parsed.data?.id).toBe(file.replace(/\.json$/, ""));
});

test.each(files)("%s has an organisation number that passes the mod-11 check", (file) => {
  const { organisationNumber } = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as {
    organisationNumber: string;
  };
  expect(validOrganisationNumber(organisationNumber)).toBe(true);
});

test("the mod-11 check itself refuses a wrong check digit", () => {
  expect(validOrganisationNumber("991258736")).toBe(true);
  expect(validOrganisationNumber("991258737")).toBe(false);
});

test("the organisation numbers are all different", () => {
  const numbers = Object.values(institutions).map((i) => i.organisationNumber);
  expect(new Set(numbers).size).toBe(numbers.length);
});

test("appName follows the language", () => {
  const fjordbyen = institutions.fjordbyen;
  expect(appName(fjordbyen, "nb")).toBe(`Praksis ${fjordbyen.nb.appNameSuffix}`);
  expect(appName(fjordbyen, "en")).toBe(`Praksis ${fjordbyen.en.appNameSuffix}`);
  expect(appName(fjordbyen, "nb")).toBe("Praksis Fjordbyen");
});

test("each variant has its own accessibility statement on uustatus.no and a contact address, marked while invented", () => {
  const all = Object.values(institutions);
  for (const institution of all) {
    expect(institution.accessibility.statementUrl).toMatch(
      /^https:\/\/uustatus\.no\/nb\/erklaringer\/publisert\/[0-9a-f-]{36}$/,
    );
    expect(institution.accessibility.contactEmail).toMatch(/^[^@\s]+@[^@\s]+$/);
    // The demo's values are invented: the marker tells an operator to replace them (README).
    expect(institution.accessibility.placeholder).toBe(true);
  }
  expect(new Set(all.map((i) => i.accessibility.statementUrl)).size).toBe(all.length);
  expect(new Set(all.map((i) => i.accessibility.contactEmail)).size).toBe(all.length);
  const broken = {
    ...institutions.fjordbyen,
    accessibility: { ...institutions.fjordbyen.accessibility, statementUrl: "not a url" },
  };
  expect(institutionSchema.safeParse(broken).success).toBe(false);
});

test("formatOrganisationNumber groups nine digits in threes and leaves anything else", () => {
  expect(formatOrganisationNumber("991258736")).toBe("991 258 736");
  expect(formatOrganisationNumber("12345")).toBe("12345");
});

test("publicInstitution gives the browser names, colours and links only", () => {
  const view = publicInstitution(institutions.nordlys, "en");
  expect(Object.keys(view).sort()).toEqual([
    "aboutUrl",
    "accessibilityStatementUrl",
    "appName",
    "colours",
    "id",
    "institutionName",
    "organisationNumber",
  ]);
  expect(view.institutionName).toBe(institutions.nordlys.en.institutionName);
  expect(view.organisationNumber).toMatch(/^\d{3} \d{3} \d{3}$/);
});

test("the guidance PDF: none configured, an address elsewhere, a served file, a missing file (hidden, not an error)", () => {
  const base = institutions.fjordbyen;
  const withGuidance = (guidancePdf: string | undefined) => ({ ...base, nb: { ...base.nb, guidancePdf } });
  const serves = (sitePath: string) => sitePath === "/veiledning.pdf";
  expect(guidancePdf(withGuidance(undefined), "nb", serves)).toBeNull();
  expect(guidancePdf(withGuidance("https://www.example.org/veiledning.pdf"), "nb", serves)).toBe(
    "https://www.example.org/veiledning.pdf",
  );
  expect(guidancePdf(withGuidance("/veiledning.pdf"), "nb", serves)).toBe("/veiledning.pdf");
  expect(guidancePdf(withGuidance("/mangler.pdf"), "nb", serves)).toBeNull();
  expect(institutionSchema.safeParse(withGuidance("/../hemmelig.txt")).success).toBe(false);
});

describe("the institution's own file (INSTITUTION_FILE)", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-institution-"));
  // The tests' own institution: no example value anywhere (the production server's tests start with it outside demo mode).
  const ownFile = path.resolve("app/test/institution.json");
  const own = JSON.parse(fs.readFileSync(ownFile, "utf8")) as Institution;
  let written = 0;
  const write = (content: unknown): string => {
    const file = path.join(scratch, `institution-${written++}.json`);
    fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
  };
  const use = (settings: Record<string, string>) => {
    for (const name of ["INSTITUTION", "INSTITUTION_FILE", "DEMO_MODE", "SEED_DEMO", "MAIL_FROM"])
      delete process.env[name];
    Object.assign(process.env, settings);
    resetEnvForTests();
  };
  const refusal = (): string => {
    try {
      checkInstitutionForUse();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      return (error as Error).message;
    }
    throw new Error("checkInstitutionForUse accepted it");
  };
  afterEach(() => use({}));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("is read from disk when the app starts, and wins over INSTITUTION", () => {
    use({ INSTITUTION_FILE: ownFile, INSTITUTION: "nordlys" });
    expect(currentInstitution().id).toBe("testhogskolen");
    expect(institutionSource()).toEqual({ kind: "file", file: ownFile });
    use({ INSTITUTION: "nordlys" });
    expect(currentInstitution().id).toBe("nordlys");
    expect(institutionSource()).toEqual({ kind: "example", id: "nordlys" });
  });

  test("what is wrong in it is named field by field, with the file", () => {
    const { intro: _, ...privacy } = own.nb.privacy;
    const file = write({ ...own, organisationNumber: "12345", nb: { ...own.nb, privacy } });
    let message = "";
    try {
      readInstitutionFile(file);
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      message = (error as Error).message;
    }
    expect(message.split("\n")).toEqual([
      `INSTITUTION_FILE ${file}: organisationNumber: must be nine digits`,
      `INSTITUTION_FILE ${file}: nb.privacy.intro: required`,
    ]);
    expect(() => readInstitutionFile(write("{ not json"))).toThrow(/^INSTITUTION_FILE .*: not JSON \(/);
    expect(() => readInstitutionFile(path.join(scratch, "missing.json"))).toThrow(
      /^INSTITUTION_FILE .*missing\.json: cannot be read \(no such file\)$/,
    );
    expect(() => readInstitutionFile(write({ ...own, mailFrom: "Praksis" }))).toThrow(
      /: mailFrom: must be an e-mail address/,
    );
  });

  test("signing.requireSentForms is optional (off without it); a wrong value or a misspelt key in signing is named", () => {
    expect(readInstitutionFile(ownFile).signing?.requireSentForms).toBeUndefined();
    expect(readInstitutionFile(write({ ...own, signing: { requireSentForms: true } })).signing).toEqual({
      requireSentForms: true,
    });
    expect(() => readInstitutionFile(write({ ...own, signing: { requireSentForms: "yes" } }))).toThrow(
      /: signing\.requireSentForms: /,
    );
    expect(() => readInstitutionFile(write({ ...own, signing: { requireSentform: true } }))).toThrow(
      /: signing: .*requireSentform/,
    );
  });

  test("the tests' own institution carries no example value", () => {
    expect(exampleValues(readInstitutionFile(ownFile), { value: own.mailFrom!, from: "mailFrom" })).toEqual([]);
    use({ INSTITUTION_FILE: ownFile });
    expect(() => checkInstitutionForUse()).not.toThrow();
  });

  test("the examples are marked, and each is refused outside demo mode with every example field named", () => {
    for (const example of Object.values(institutions)) expect(example.example).toBe(true);
    use({ INSTITUTION: "fjordbyen" });
    const message = refusal();
    expect(message).toMatch(
      /^INSTITUTION=fjordbyen is one of the examples in app\/institutions\/: outside demo mode, set INSTITUTION_FILE/,
    );
    for (const field of [
      "example: true",
      "organisationNumber: 991258736 is an example's",
      "aboutUrl: an example address",
      "accessibility.placeholder: true",
      "accessibility.contactEmail: an example address",
      "mailFrom: an example address",
      'nb.institutionName: names the example college "Fjordbyen høgskole"',
      'nb.privacy.intro: names the example college "Fjordbyen høgskole"',
      'en.privacy.intro: names the example college "Fjordbyen University College"',
    ]) {
      expect(message).toContain(`\n  ${field}`);
    }
  });

  test("in demo mode (DEMO_MODE, or the older SEED_DEMO) the examples are what the demo shows", () => {
    use({ INSTITUTION: "vestkyst", DEMO_MODE: "true" });
    expect(() => checkInstitutionForUse()).not.toThrow();
    use({ INSTITUTION: "vestkyst", SEED_DEMO: "true" });
    expect(() => checkInstitutionForUse()).not.toThrow();
  });

  // Each example value put back into an otherwise own file: refused outside demo mode, naming the field.
  test.each<[string, (i: Institution) => Institution, string]>([
    ["the marker of an example", (i) => ({ ...i, example: true }), "example: true"],
    [
      "an example's organisation number",
      (i) => ({ ...i, organisationNumber: institutions.nordlys.organisationNumber }),
      "organisationNumber: 992174625 is an example's",
    ],
    [
      "an address under example.no",
      (i) => ({ ...i, aboutUrl: "https://www.fjordbyen.example.no/praksis" }),
      "aboutUrl: an example address",
    ],
    [
      "a contact under example.org",
      (i) => ({ ...i, accessibility: { ...i.accessibility, contactEmail: "uu@example.org" } }),
      "accessibility.contactEmail: an example address",
    ],
    [
      "the statement link marked placeholder",
      (i) => ({ ...i, accessibility: { ...i.accessibility, placeholder: true } }),
      "accessibility.placeholder: true",
    ],
    [
      "an example's statement link",
      (i) => ({
        ...i,
        accessibility: { ...i.accessibility, statementUrl: institutions.fjordbyen.accessibility.statementUrl },
      }),
      "accessibility.statementUrl: an example's statement",
    ],
    [
      "the privacy text naming the example college as controller",
      (i) => ({ ...i, nb: { ...i.nb, privacy: { ...i.nb.privacy, intro: institutions.fjordbyen.nb.privacy.intro } } }),
      'nb.privacy.intro: names the example college "Fjordbyen høgskole"',
    ],
    [
      "an example's organisation number in a text",
      (i) => ({ ...i, en: { ...i.en, signingForm: { ...i.en.signingForm, declaration: "Org. no. 991 258 736." } } }),
      "en.signingForm.declaration: carries an example's organisation number",
    ],
    [
      "the sender under example.no",
      (i) => ({ ...i, mailFrom: "Praksis <praksis@fjordbyen.example.no>" }),
      "mailFrom: an example address",
    ],
    [
      "no sender at all (the example default)",
      (i) => ({ ...i, mailFrom: undefined }),
      "MAIL_FROM: not set, and the institution file has no mailFrom",
    ],
  ])("%s", (_, change, field) => {
    const file = write(change(own));
    use({ INSTITUTION_FILE: file });
    const message = refusal();
    expect(message.split("\n")[0]).toBe(
      `INSTITUTION_FILE ${file}: example values outside demo mode; replace each with the institution's own (README, "The institution's file"):`,
    );
    expect(message.split("\n").slice(1)).toEqual([expect.stringContaining(`  ${field}`)]);
  });

  test("MAIL_FROM wins over the file's sender, and is refused at an example address", () => {
    use({ INSTITUTION_FILE: ownFile, MAIL_FROM: "Praksis <noreply@praksis.example.org>" });
    expect(mailFrom()).toEqual({ value: "Praksis <noreply@praksis.example.org>", from: "MAIL_FROM" });
    expect(refusal()).toContain("\n  MAIL_FROM: Praksis <noreply@praksis.example.org> is an example address");
    use({ INSTITUTION_FILE: ownFile, MAIL_FROM: "Praksis <praksis@hogskolen.no>" });
    expect(() => checkInstitutionForUse()).not.toThrow();
    use({ INSTITUTION_FILE: ownFile });
    expect(mailFrom()).toEqual({ value: own.mailFrom, from: "mailFrom" });
  });
});
