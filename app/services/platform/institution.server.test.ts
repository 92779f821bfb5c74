import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { appName, formatOrganisationNumber, guidancePdf, institutions, institutionSchema, publicInstitution } from "./institution.server";

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
  const { organisationNumber } = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as { organisationNumber: string };
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
    expect(institution.accessibility.statementUrl).toMatch(/^https:\/\/uustatus\.no\/nb\/erklaringer\/publisert\/[0-9a-f-]{36}$/);
    expect(institution.accessibility.contactEmail).toMatch(/^[^@\s]+@[^@\s]+$/);
    // The demo's values are invented: the marker tells an operator to replace them (README).
    expect(institution.accessibility.placeholder).toBe(true);
  }
  expect(new Set(all.map((i) => i.accessibility.statementUrl)).size).toBe(all.length);
  expect(new Set(all.map((i) => i.accessibility.contactEmail)).size).toBe(all.length);
  const broken = { ...institutions.fjordbyen, accessibility: { ...institutions.fjordbyen.accessibility, statementUrl: "not a url" } };
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

test("the guidance PDF: none configured, an address elsewhere, a served file, a missing file (hidden, spec §8)", () => {
  const base = institutions.fjordbyen;
  const withGuidance = (guidancePdf: string | undefined) => ({ ...base, nb: { ...base.nb, guidancePdf } });
  const serves = (sitePath: string) => sitePath === "/veiledning.pdf";
  expect(guidancePdf(withGuidance(undefined), "nb", serves)).toBeNull();
  expect(guidancePdf(withGuidance("https://www.example.org/veiledning.pdf"), "nb", serves)).toBe("https://www.example.org/veiledning.pdf");
  expect(guidancePdf(withGuidance("/veiledning.pdf"), "nb", serves)).toBe("/veiledning.pdf");
  expect(guidancePdf(withGuidance("/mangler.pdf"), "nb", serves)).toBeNull();
  expect(institutionSchema.safeParse(withGuidance("/../hemmelig.txt")).success).toBe(false);
});
