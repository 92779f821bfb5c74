import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Language } from "~/locales";
import { env, EnvError, whenEnvResets } from "./env.server";

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

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #00509e");

/**
 * One kind's rule in the records schedule: days kept (a whole number ≥ 0), counted from an event the
 * kind allows, and what happens then. `from` and `action` may be left out (the kind's default).
 */
function retentionRule<F extends string, A extends string>(from: readonly [F, ...F[]], action: readonly [A, ...A[]]) {
  return z
    .object({
      keepDays: z.number().int().min(0).max(36_500),
      from: z.enum(from).optional(),
      action: z.enum(action).optional(),
    })
    .strict()
    .optional();
}
const classRecord = () => retentionRule(["classEnd", "created"], ["delete"]);

/**
 * The records schedule (docs/rules/records.md): how long each kind of record is kept. Every kind is
 * optional; one left out takes the documented default (app/services/records/retention.ts).
 */
export const retentionSchema = z
  .object({
    answers: classRecord(),
    warnings: classRecord(),
    signingForms: classRecord(),
    resultSubmissions: classRecord(),
    recordOpenings: retentionRule(["created"], ["delete"]),
    auditEvents: retentionRule(["created"], ["delete"]),
    invitations: retentionRule(["created", "classEnd"], ["delete"]),
    codes: retentionRule(["created"], ["delete"]),
    people: retentionRule(["lastLogIn"], ["anonymise"]),
  })
  .strict();

export const institutionSchema = z.object({
  /**
   * Marks the examples in app/institutions/ (the demo's invented colleges): refused outside demo
   * mode, so a copy is not put live before every field is the institution's own (README, "The
   * institution's file").
   */
  example: z.boolean().optional(),
  id: z.string().regex(/^[a-z0-9-]+$/, "must be lower-case letters, digits and -"),
  organisationNumber: z.string().regex(/^\d{9}$/, "must be nine digits"),
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
  /** The sender of the app's mail (`Name <address>`); MAIL_FROM overrides it. */
  mailFrom: z
    .string()
    .regex(
      /^(?:[^<>]*<\s*[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+\s*>|[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+)$/,
      "must be an e-mail address, or Name <address>",
    )
    .optional(),
  colours: z.object({ brand: hex, brandDark: hex, brandContrast: hex }),
  /**
   * The signing form's rules that are the institution's to choose. `requireSentForms`: the teacher
   * may confirm the mid-semester part or sign only once the student, the supervisor and the
   * teachers have sent every form it looks at (default false: the teacher may go on, saying so).
   */
  signing: z.object({ requireSentForms: z.boolean().optional() }).strict().optional(),
  /** How long each kind of record is kept (docs/rules/records.md); left out, the defaults. */
  retention: retentionSchema.optional(),
  nb: text,
  en: text,
});

export type Institution = z.infer<typeof institutionSchema>;

/** The example files: built into the app by Vite; read from disk where Vite is not (a script run by tsx). */
function exampleFiles(): Record<string, { default: unknown }> {
  try {
    return import.meta.glob<{ default: unknown }>("../../institutions/*.json", { eager: true });
  } catch {
    const dir = path.resolve(import.meta.dirname, "../../institutions");
    const names = fs.readdirSync(dir).filter((name) => name.endsWith(".json"));
    return Object.fromEntries(
      names.map((name) => [name, { default: JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as unknown }]),
    );
  }
}
const files = exampleFiles();

/** One line per problem, each naming the field: `nb.privacy.intro: required`. */
function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.join(".") || "(the whole file)";
    const message =
      issue.code === "invalid_type" && /received undefined$/.test(issue.message) ? "required" : issue.message;
    return `${field}: ${message}`;
  });
}

/**
 * The examples (app/institutions/*.json, built into the app), validated; a broken one stops the app
 * at start-up rather than on a page. INSTITUTION picks one for the demo or a trial.
 */
export const institutions: Record<string, Institution> = Object.fromEntries(
  Object.entries(files).map(([file, mod]) => {
    const parsed = institutionSchema.safeParse(mod.default);
    if (!parsed.success)
      throw new Error(`Institution file ${file} is invalid:\n  ${issuesOf(parsed.error).join("\n  ")}`);
    return [parsed.data.id, parsed.data];
  }),
);

/**
 * The institution's own file (INSTITUTION_FILE), read when the app starts: JSON in the examples'
 * shape. What is wrong stops the app with one line per field, e.g.
 * `INSTITUTION_FILE /etc/praksis/institution.json: nb.privacy.intro: required`.
 */
export function readInstitutionFile(file: string): Institution {
  const where = `INSTITUTION_FILE ${file}`;
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EnvError(
      `${where}: cannot be read (${code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (code ?? String(error))})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EnvError(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = institutionSchema.safeParse(json);
  if (!parsed.success)
    throw new EnvError(
      issuesOf(parsed.error)
        .map((line) => `${where}: ${line}`)
        .join("\n"),
    );
  return parsed.data;
}

/** Where the institution's settings come from: INSTITUTION_FILE (which wins), or one of the examples. */
export function institutionSource(): { kind: "file"; file: string } | { kind: "example"; id: string } {
  const config = env();
  return config.INSTITUTION_FILE
    ? { kind: "file", file: path.resolve(config.INSTITUTION_FILE) }
    : { kind: "example", id: config.INSTITUTION };
}

let current: Institution | undefined;
whenEnvResets(() => {
  current = undefined;
});

/** The institution in effect: read once (the file at start-up), then kept. */
export function currentInstitution(): Institution {
  if (current) return current;
  const source = institutionSource();
  if (source.kind === "file") {
    current = readInstitutionFile(source.file);
  } else {
    const found = institutions[source.id];
    if (!found)
      throw new EnvError(
        `INSTITUTION=${source.id} names no example; known: ${Object.keys(institutions).join(", ")} (or set INSTITUTION_FILE)`,
      );
    current = found;
  }
  return current;
}

/** The sender of the app's mail before MAIL_FROM and the institution file's `mailFrom` say otherwise. */
export const EXAMPLE_MAIL_FROM = "Praksis <noreply@praksis.example.org>";

/** The sender of the app's mail: MAIL_FROM, else the institution file's `mailFrom`, else the example default. */
export function mailFrom(): { value: string; from: "MAIL_FROM" | "mailFrom" | "default" } {
  const set = env().MAIL_FROM;
  if (set) return { value: set, from: "MAIL_FROM" };
  const own = currentInstitution().mailFrom;
  return own ? { value: own, from: "mailFrom" } : { value: EXAMPLE_MAIL_FROM, from: "default" };
}

/** An address under the domains reserved for examples (example.no, example.org, …; RFC 2606's `.example`). */
const EXAMPLE_ADDRESS = /(?:^|[\s.@/<(])example\.(?:no|org|com|net)\b|\.example\b/i;

function stringsOf(value: unknown, at: string[] = []): { field: string; text: string }[] {
  if (typeof value === "string") return [{ field: at.join("."), text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsOf(item, [...at, String(i)]));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => stringsOf(item, [...at, key]));
  return [];
}

/**
 * The fields that still carry an example's value: the marker of an example file, an example's
 * organisation number, an address under example.no/.org, a text naming an example college (the
 * privacy notice's controller), the accessibility statement marked placeholder, and the sender
 * (MAIL_FROM, or the file's `mailFrom`) left at an example address. Each line names the field.
 */
export function exampleValues(
  institution: Institution,
  sender: { value: string; from: "MAIL_FROM" | "mailFrom" | "default" },
): string[] {
  const examples = Object.values(institutions);
  const found: string[] = [];
  if (institution.example)
    found.push("example: true (an example file; remove the marker once every field is the institution's own)");
  const numbers = new Set(examples.map((e) => e.organisationNumber));
  if (numbers.has(institution.organisationNumber))
    found.push(`organisationNumber: ${institution.organisationNumber} is an example's`);
  if (institution.accessibility.placeholder) {
    found.push(
      "accessibility.placeholder: true (the statement link and contact are placeholders: put in the institution's published statement on uustatus.no, then set it to false)",
    );
  } else if (examples.some((e) => e.accessibility.statementUrl === institution.accessibility.statementUrl)) {
    found.push("accessibility.statementUrl: an example's statement");
  }
  const names = [...new Set(examples.flatMap((e) => [e.nb.institutionName, e.en.institutionName]))];
  const formattedNumbers = [...numbers].map(formatOrganisationNumber);
  for (const { field, text } of stringsOf(institution)) {
    if (field === "id" || field === "organisationNumber") continue;
    const name = names.find((n) => text.includes(n));
    if (EXAMPLE_ADDRESS.test(text)) found.push(`${field}: an example address (under example.no, example.org, …)`);
    else if (name) found.push(`${field}: names the example college "${name}"`);
    else if ([...numbers, ...formattedNumbers].some((n) => text.includes(n)))
      found.push(`${field}: carries an example's organisation number`);
  }
  if (sender.from === "default")
    found.push(
      `MAIL_FROM: not set, and the institution file has no mailFrom (the example sender ${EXAMPLE_MAIL_FROM})`,
    );
  else if (sender.from === "MAIL_FROM" && EXAMPLE_ADDRESS.test(sender.value))
    found.push(`MAIL_FROM: ${sender.value} is an example address`);
  return found;
}

/**
 * Outside demo mode, the institution must be the operator's own: an example still in place (an
 * example picked by INSTITUTION, or a file with example values) stops start-up, naming each field.
 * In demo mode the examples are what the demo shows.
 */
export function checkInstitutionForUse(): void {
  const config = env();
  const institution = currentInstitution();
  if (config.demoMode) return;
  const found = exampleValues(institution, mailFrom());
  if (found.length === 0) return;
  const source = institutionSource();
  const head =
    source.kind === "file"
      ? `INSTITUTION_FILE ${source.file}: example values outside demo mode; replace each with the institution's own (README, "The institution's file"):`
      : `INSTITUTION=${source.id} is one of the examples in app/institutions/: outside demo mode, set INSTITUTION_FILE to the institution's own file (README, "The institution's file"), or DEMO_MODE=true for the demo. Its example values:`;
  throw new EnvError(`${head}\n${found.map((line) => `  ${line}`).join("\n")}`);
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

/** The guidance PDF's address for the form page, or null: none configured, or a file that is not there (the button is then hidden, not an error). */
export function guidancePdf(
  institution: Institution,
  language: Language,
  serves: (sitePath: string) => boolean = servesFile,
): string | null {
  const address = institution[language].guidancePdf;
  if (!address) return null;
  return address.startsWith("/") && !serves(address) ? null : address;
}
