import { z } from "zod";
import { backupVariables } from "../../../scripts/backup-schedule.mjs";
import { parseTrustProxy } from "../../../scripts/trust-proxy.mjs";

const roleName = z.enum(["Admin", "Student", "Teacher", "Advisor"]);

const booleanFlag = z.enum(["true", "false", "1", "0", ""]).transform((v) => v === "true" || v === "1");

/** A flag that may be left unset; empty means unset too (as the launcher, scripts/demo-mode.mjs, reads it). */
const optionalFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1"));

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined));

/** An address of a web service: http or https, with a host. */
const webUrl = z.url({
  protocol: /^https?$/,
  hostname: /./,
  error: "must be an http:// or https:// address with a host",
});

const optionalUrl = webUrl.optional().or(z.literal("").transform(() => undefined));

/** A URL of the given schemes, checked by `check` (which names what is missing); empty means unset. */
function optionalUrlOf(
  schemes: RegExp,
  schemesText: string,
  check: (url: URL) => string | null,
  normalise = (_url: URL, value: string) => value,
) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return undefined;
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        ctx.addIssue({ code: "custom", message: `must be a URL starting with ${schemesText}` });
        return z.NEVER;
      }
      const problem = schemes.test(url.protocol) ? check(url) : `must start with ${schemesText}`;
      if (problem) {
        ctx.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }
      return normalise(url, value);
    });
}

/**
 * PostgreSQL's address: a host (or, for a Unix socket, a `host` parameter naming its folder) and a
 * database name. `postgres://` alone would connect to whatever libpq's defaults find.
 */
export const databaseUrl = optionalUrlOf(/^postgres(ql)?:$/, "postgres:// or postgresql://", (url) => {
  if (!url.hostname && !url.searchParams.get("host"))
    return "names no host (postgres://user:password@host:5432/database, or ?host=/socket/folder)";
  if (!decodeURIComponent(url.pathname.replace(/^\//, "")))
    return "names no database (postgres://user:password@host:5432/database)";
  return null;
});

/** The SMTP server: a host, and a port if it is not the scheme's usual one. */
export const smtpUrl = optionalUrlOf(/^smtps?:$/, "smtp:// or smtps://", (url) =>
  url.hostname ? null : "names no host (smtp://user:password@mail.example.org:587)",
);

/** The public address: the scheme, the host and perhaps a port, nothing after (the app serves from /). */
export const appUrl = optionalUrlOf(
  /^https?:$/,
  "https:// (or http://)",
  (url) => {
    if (!url.hostname) return "names no host (https://praksis.example.org)";
    if (url.pathname !== "/" || url.search || url.hash)
      return "must be the address of the site alone, without a path or a query (https://praksis.example.org)";
    return null;
  },
  (url) => url.origin,
);

const port = z.coerce.number().int().min(1, "must be a port, 1–65535").max(65535, "must be a port, 1–65535");

/** The logger's levels (pino's, scripts/log.mjs). */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

/** `Name <address>` or a bare address, as nodemailer takes a sender. */
const mailAddress = z
  .string()
  .regex(
    /^(?:[^<>]*<\s*[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+\s*>|[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+)$/,
    "must be an e-mail address, or Name <address>",
  );

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: port.default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    // The app's own files: the embedded PostgreSQL (DATA_DIR/postgres, run by `npm start` when
    // DATABASE_URL is not set), its credentials, the generated secret and the local outbox.
    DATA_DIR: z.string().min(1).default("./data"),
    // Set by the launcher (server.mjs, scripts/dev.mjs) next to the DATABASE_URL of the embedded server.
    EMBEDDED_DATABASE: booleanFlag.default(false),
    // A comma-separated list: the first signs, every one verifies (a rotation logs nobody out).
    SESSION_SECRET: z
      .string()
      .refine(
        (s) => s.split(",").every((one) => one.trim().length >= 32),
        "must be at least 32 characters (each one, in a comma-separated list)",
      )
      .optional(),
    APP_URL: appUrl,
    // One of the examples in app/institutions/ (for the demo and trials); INSTITUTION_FILE wins when both are set.
    INSTITUTION: z
      .string()
      .regex(/^[a-z0-9-]+$/, "must be a variant file name")
      .default("fjordbyen"),
    // The institution's own file, kept by the operator outside the source (institution.server.ts reads it).
    INSTITUTION_FILE: optionalText,
    SMTP_URL: smtpUrl,
    // `log`: no SMTP server on purpose (a trial outside demo mode): mail is written to the outbox
    // folder and only its kind and id are logged. `smtp`: SMTP_URL must be set. Unset: SMTP when
    // SMTP_URL is set, the demo's outbox in demo mode; otherwise start-up stops.
    MAIL_TRANSPORT: z
      .enum(["smtp", "log", ""])
      .optional()
      .transform((v) => (v ? v : undefined)),
    // The sender; without it, the institution file's `mailFrom` (mailFrom() in email.server.ts).
    MAIL_FROM: mailAddress.optional().or(z.literal("").transform(() => undefined)),
    // Default: DATA_DIR/outbox.
    OUTBOX_DIR: z.string().min(1).optional(),
    OTP_LOGIN_ROLES: z
      .string()
      .default("Admin,Student,Teacher,Advisor")
      .transform((s, ctx) => {
        const names = s
          .split(",")
          .map((r) => r.trim())
          .filter(Boolean);
        const parsed = z.array(roleName).safeParse(names);
        if (!parsed.success) {
          ctx.addIssue({
            code: "custom",
            message: "must be a comma-separated list of Admin, Student, Teacher, Advisor",
          });
          return z.NEVER;
        }
        return parsed.data;
      }),
    OTP_REQUESTS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
    OTP_REQUESTS_PER_EMAIL: z.coerce.number().int().min(1).default(5),
    // Demo mode: the demo seed, the "Demo" banner and the public /dev/outbox (README). On only when
    // asked for; `npm start` asks for it on a fresh embedded database (scripts/demo-mode.mjs).
    DEMO_MODE: optionalFlag,
    // The older name of DEMO_MODE, still understood (DEMO_MODE wins when both are set).
    SEED_DEMO: optionalFlag,
    // The proxies in front: a hop count or their addresses (scripts/trust-proxy.mjs says how it is read).
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((value, ctx) => {
        try {
          return parseTrustProxy(value);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
          return z.NEVER;
        }
      }),
    // Feide (OpenID Connect). Offered on the log-in page when the client id and secret are set.
    FEIDE_CLIENT_ID: optionalText,
    FEIDE_CLIENT_SECRET: optionalText,
    FEIDE_ISSUER: webUrl.default("https://auth.dataporten.no"),
    FEIDE_AUTHORIZATION_URL: optionalUrl,
    FEIDE_TOKEN_URL: optionalUrl,
    FEIDE_USERINFO_URL: optionalUrl,
    FEIDE_JWKS_URL: optionalUrl,
    FEIDE_GROUPS_URL: webUrl.default("https://groups-api.dataporten.no/groups/me/groups"),
    FEIDE_SCOPES: z.string().default("openid userid userid-feide email profile groups-edu"),
    // Vipps Login (OpenID Connect), for supervisors.
    VIPPS_CLIENT_ID: optionalText,
    VIPPS_CLIENT_SECRET: optionalText,
    VIPPS_ISSUER: webUrl.default("https://api.vipps.no/access-management-1.0/access/"),
    VIPPS_AUTHORIZATION_URL: optionalUrl,
    VIPPS_TOKEN_URL: optionalUrl,
    VIPPS_USERINFO_URL: webUrl.default("https://api.vipps.no/vipps-userinfo-api/userinfo"),
    VIPPS_JWKS_URL: optionalUrl,
    VIPPS_SCOPES: z.string().default("openid name email phoneNumber"),
    // Minutes between the app's reminder runs (docs/rules/reminders.md); 0 switches the app's own runs off (cron can run `npm run reminders`).
    REMINDERS_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(1440).default(15),
    // false: the app does not migrate at start, it checks the schema is current (`npm run migrate` migrates).
    MIGRATE_ON_START: optionalFlag.transform((v) => v ?? true),
    // /debug/fs for admins: identity, memberships and roles as raw data.
    DEBUG_FS: booleanFlag.default(false),
    // Read by scripts/log.mjs (which stops on a wrong one too) and server.mjs; checked here with the rest.
    LOG_LEVEL: z.enum([...LOG_LEVELS, ""], { error: `must be one of ${LOG_LEVELS.join(", ")}` }).optional(),
    LOG_FORMAT: z.enum(["json", "pretty", "console", ""], { error: "must be json, pretty or console" }).optional(),
    WEB_CONCURRENCY: z
      .union([z.literal(""), z.coerce.number().int().min(1, "must be a number of app processes, 1 or more").max(1024)])
      .optional(),
    EMBEDDED_POSTGRES_PORT: z.union([z.literal(""), port]).optional(),
    SHUTDOWN_GRACE_SECONDS: z
      .union(
        [z.literal(""), z.coerce.number().int().min(0, "must be 0–600 seconds").max(600, "must be 0–600 seconds")],
        { error: "must be a whole number of seconds, 0–600" },
      )
      .optional(), // read by server.mjs (scripts/service.mjs)
    // The nightly backup of the embedded database (scripts/backup-schedule.mjs, run by server.mjs's
    // primary, which checks them too): BACKUPS=off, BACKUP_TIME (HH:MM, Europe/Oslo),
    // BACKUP_KEEP_DAILY, BACKUP_KEEP_WEEKLY, BACKUP_DIR (default DATA_DIR/backups).
    ...backupVariables,
    // Set by server.mjs for the app processes when it runs the nightly backup (/healthz says so).
    BACKUPS_SCHEDULED: booleanFlag.default(false),
    // GET /metrics (scripts/metrics.mjs): `loopback` answers this machine, the token `Authorization: Bearer …` from anywhere.
    METRICS: z.enum(["loopback", "off", ""], { error: "must be loopback (or off)" }).optional(),
    METRICS_TOKEN: z
      .string()
      .regex(/^(?:[!-~]{32,})?$/, "must be at least 32 characters, without spaces")
      .optional(),
  })
  .transform((env) => {
    const embedded = env.EMBEDDED_DATABASE || !env.DATABASE_URL;
    // Never by default: the launcher says DEMO_MODE=true for a fresh embedded database, and an
    // operator who wants the demo on a PostgreSQL of their own (or with SMTP) says so.
    const demoMode = env.DEMO_MODE ?? env.SEED_DEMO ?? false;
    // How mail goes: through SMTP_URL; or written to the outbox folder, in demo mode for
    // /dev/outbox (and the console), else (MAIL_TRANSPORT=log, a trial) with no text in the log.
    const mailTransport: "smtp" | "log" | "outbox" = env.SMTP_URL
      ? "smtp"
      : env.MAIL_TRANSPORT === "log" || !demoMode
        ? "log"
        : "outbox";
    return {
      ...env,
      isProduction: env.NODE_ENV === "production",
      embedded,
      OUTBOX_DIR: env.OUTBOX_DIR ?? `${env.DATA_DIR.replace(/\/+$/, "")}/outbox`,
      // Where the nightly backups and their status file are.
      BACKUP_DIR: env.BACKUP_DIR || `${env.DATA_DIR.replace(/\/+$/, "")}/backups`,
      demoMode,
      mailTransport,
      // Whether the mail transport was chosen: SMTP_URL, demo mode or MAIL_TRANSPORT=log. Start-up
      // (configuration.server.ts) stops outside demo mode when it was not.
      mailTransportChosen: Boolean(env.SMTP_URL) || demoMode || env.MAIL_TRANSPORT === "log",
      // /dev/outbox lists mails written to the local outbox, log-in codes included: public, so only
      // in demo mode (whose log-ins are public anyway), and only when mail goes there (no SMTP_URL).
      devOutbox: mailTransport === "outbox",
    };
  });

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid configuration (environment variables):\n${lines.join("\n")}`);
  }
  const mailConflict =
    result.data.MAIL_TRANSPORT === "smtp" && !result.data.SMTP_URL
      ? "MAIL_TRANSPORT: smtp needs SMTP_URL"
      : result.data.MAIL_TRANSPORT === "log" && result.data.SMTP_URL
        ? "MAIL_TRANSPORT: log, but SMTP_URL is set too: choose one"
        : null;
  if (mailConflict) throw new EnvError(`Invalid configuration (environment variables):\n  ${mailConflict}`);
  if (!result.data.embedded && !result.data.SESSION_SECRET) {
    // Several instances on one PostgreSQL must sign cookies and key codes with the same secret.
    throw new EnvError(
      "Invalid configuration (environment variables):\n  SESSION_SECRET: required with DATABASE_URL (at least 32 characters, the same for every instance; a comma-separated list while rotating, the new one first)",
    );
  }
  return result.data;
}

let cached: Env | undefined;

/** The parsed environment; the first call parses it and stops the process with a clear message if it is wrong. */
export function env(): Env {
  if (!cached) {
    try {
      cached = parseEnv(process.env);
    } catch (error) {
      if (error instanceof EnvError && process.env.VITEST === undefined) {
        process.stderr.write(`\n${error.message}\n\nSee the configuration table in README.md.\n\n`);
        process.exit(1);
      }
      throw error;
    }
  }
  return cached;
}

const resets: (() => void)[] = [];

/**
 * What a module keeps that was made from the environment (a mail transport, cookie objects, the
 * secret) registers here, so a test that changes the environment starts from it, not from what an
 * earlier test file in the same worker made.
 */
export function whenEnvResets(reset: () => void): void {
  resets.push(reset);
}

export function resetEnvForTests(): void {
  cached = undefined;
  for (const reset of resets) reset();
}
