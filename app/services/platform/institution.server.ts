import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Language } from "~/locales";
import { env } from "./env.server";

const text = z.object({
  appNameSuffix: z.string().min(1),
  institutionName: z.string().min(1),
  privacy: z.object({
    intro: z.string().min(1),
    sections: z.array(z.object({ heading: z.string().min(1), paragraphs: z.array(z.string().min(1)).min(1) })).min(1),
  }),
  signingForm: z.object({ title: z.string().min(1), declaration: z.string().min(1) }),
  /**
   * The guidance for those who grade (a PDF): an address elsewhere, or a file the app serves from
   * `public/`. Optional: without one, or when the file is missing, the form page shows no button.
   */
  guidancePdf: z.union([z.url(), z.string().regex(/^\/[\w./-]+\.pdf$/)]).optional(),
});

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/);

export const institutionSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  organisationNumber: z.string().regex(/^\d{9}$/),
  aboutUrl: z.url(),
  /**
   * Universal design (the ICT regulation): the institution's published accessibility statement
   * (uustatus.no), linked from every page's footer, and whom to write to about it (the in-app
   * /accessibility page). `placeholder: true` marks values invented for the demo, which an operator
   * replaces with the institution's own (README, "Accessibility statement").
   */
  accessibility: z.object({
    placeholder: z.boolean(),
    statementUrl: z.url(),
    contactEmail: z.email(),
  }),
  privacyPolicyVersion: z.string().min(1),
  colours: z.object({ brand: hex, brandDark: hex, brandContrast: hex }),
  nb: text,
  en: text,
});

export type Institution = z.infer<typeof institutionSchema>;

const files = import.meta.glob<{ default: unknown }>("../../institutions/*.json", { eager: true });

/** Every variant file, validated; a broken file stops the app at start-up rather than on a page. */
export const institutions: Record<string, Institution> = Object.fromEntries(
  Object.entries(files).map(([file, mod]) => {
    const parsed = institutionSchema.safeParse(mod.default);
    if (!parsed.success) throw new Error(`Institution file ${file} is invalid: ${parsed.error.message}`);
    return [parsed.data.id, parsed.data];
  }),
);

export function currentInstitution(): Institution {
  const id = env().INSTITUTION;
  const found = institutions[id];
  if (!found) {
    throw new Error(`INSTITUTION=${id} names no variant; known: ${Object.keys(institutions).join(", ")}`);
  }
  return found;
}

export function appName(institution: Institution, language: Language): string {
  return `Praksis ${institution[language].appNameSuffix}`;
}

/** Formats 991258736 as 991 258 736, the way Norwegians write it. */
export function formatOrganisationNumber(value: string): string {
  return value.replace(/^(\d{3})(\d{3})(\d{3})$/, "$1 $2 $3");
}

/** What the browser needs of the variant: names, colours and links, never the whole file. */
export function publicInstitution(institution: Institution, language: Language) {
  return {
    id: institution.id,
    appName: appName(institution, language),
    institutionName: institution[language].institutionName,
    organisationNumber: formatOrganisationNumber(institution.organisationNumber),
    aboutUrl: institution.aboutUrl,
    accessibilityStatementUrl: institution.accessibility.statementUrl,
    colours: institution.colours,
  };
}

export type PublicInstitution = ReturnType<typeof publicInstitution>;

const servedFiles = new Map<string, boolean>();

/** Whether the app serves a file of `public/` (from `build/client` once built). Looked up once per path. */
function servesFile(sitePath: string): boolean {
  let found = servedFiles.get(sitePath);
  if (found === undefined) {
    found = ["build/client", "public"].some((dir) => fs.existsSync(path.join(process.cwd(), dir, sitePath)));
    servedFiles.set(sitePath, found);
  }
  return found;
}

/** The guidance PDF's address for the form page, or null: none configured, or (spec §8) a file that is not there. */
export function guidancePdf(institution: Institution, language: Language, serves: (sitePath: string) => boolean = servesFile): string | null {
  const address = institution[language].guidancePdf;
  if (!address) return null;
  return address.startsWith("/") && !serves(address) ? null : address;
}
