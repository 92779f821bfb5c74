import { z } from "zod";

const roleName = z.enum(["Admin", "Student", "Teacher", "Advisor"]);

const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .transform((v) => v === "true" || v === "1");

/** A flag that may be left unset; empty means unset too (as the launcher, scripts/demo-mode.mjs, reads it). */
const optionalFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1"));

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined));

const optionalUrl = z
  .url()
  .optional()
  .or(z.literal("").transform(() => undefined));

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    // The app's own files: the embedded PostgreSQL (DATA_DIR/postgres, run by `npm start` when
    // DATABASE_URL is not set), its credentials, the generated secret and the local outbox.
    DATA_DIR: z.string().min(1).default("./data"),
    // Set by the launcher (server.mjs, scripts/dev.mjs) next to the DATABASE_URL of the embedded server.
    EMBEDDED_DATABASE: booleanFlag.default(false),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    APP_URL: z.url().optional(),
    INSTITUTION: z.string().regex(/^[a-z0-9-]+$/, "must be a variant file name").default("fjordbyen"),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    MAIL_FROM: z.string().min(3).default("Praksis <noreply@praksis.example.org>"),
    // Default: DATA_DIR/outbox.
    OUTBOX_DIR: z.string().min(1).optional(),
    OTP_LOGIN_ROLES: z
      .string()
      .default("Admin,Student,Teacher,Advisor")
      .transform((s, ctx) => {
        const names = s.split(",").map((r) => r.trim()).filter(Boolean);
        const parsed = z.array(roleName).safeParse(names);
        if (!parsed.success) {
          ctx.addIssue({ code: "custom", message: "must be a comma-separated list of Admin, Student, Teacher, Advisor" });
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
    TRUST_PROXY: booleanFlag.default(false),
    // Feide (OpenID Connect). Offered on the log-in page when the client id and secret are set.
    FEIDE_CLIENT_ID: optionalText,
    FEIDE_CLIENT_SECRET: optionalText,
    FEIDE_ISSUER: z.url().default("https://auth.dataporten.no"),
    FEIDE_AUTHORIZATION_URL: optionalUrl,
    FEIDE_TOKEN_URL: optionalUrl,
    FEIDE_USERINFO_URL: optionalUrl,
    FEIDE_JWKS_URL: optionalUrl,
    FEIDE_GROUPS_URL: z.url().default("https://groups-api.dataporten.no/groups/me/groups"),
    FEIDE_SCOPES: z.string().default("openid userid userid-feide email profile groups-edu"),
    // Vipps Login (OpenID Connect), for supervisors.
    VIPPS_CLIENT_ID: optionalText,
    VIPPS_CLIENT_SECRET: optionalText,
    VIPPS_ISSUER: z.url().default("https://api.vipps.no/access-management-1.0/access/"),
    VIPPS_AUTHORIZATION_URL: optionalUrl,
    VIPPS_TOKEN_URL: optionalUrl,
    VIPPS_USERINFO_URL: z.url().default("https://api.vipps.no/vipps-userinfo-api/userinfo"),
    VIPPS_JWKS_URL: optionalUrl,
    VIPPS_SCOPES: z.string().default("openid name email phoneNumber"),
    // Minutes between the app's reminder runs (issue 20); 0 switches the app's own runs off (cron can run `npm run reminders`).
    REMINDERS_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(1440).default(15),
    // /debug/fs for admins: identity, memberships and roles as raw data.
    DEBUG_FS: booleanFlag.default(false),
  })
  .transform((env) => {
    const embedded = env.EMBEDDED_DATABASE || !env.DATABASE_URL;
    // Never by default: the launcher says DEMO_MODE=true for a fresh embedded database, and an
    // operator who wants the demo on a PostgreSQL of their own (or with SMTP) says so.
    const demoMode = env.DEMO_MODE ?? env.SEED_DEMO ?? false;
    return {
      ...env,
      isProduction: env.NODE_ENV === "production",
      embedded,
      OUTBOX_DIR: env.OUTBOX_DIR ?? `${env.DATA_DIR.replace(/\/+$/, "")}/outbox`,
      demoMode,
      // /dev/outbox lists mails written to the local outbox, log-in codes included: public, so only
      // in demo mode (whose log-ins are public anyway), and only when mail goes there (no SMTP_URL).
      devOutbox: demoMode && !env.SMTP_URL,
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
  if (!result.data.embedded && !result.data.SESSION_SECRET) {
    // Several instances on one PostgreSQL must sign cookies and key codes with the same secret.
    throw new EnvError(
      "Invalid configuration (environment variables):\n  SESSION_SECRET: required with DATABASE_URL (at least 32 characters, the same for every instance)",
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
