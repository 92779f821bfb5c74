import cluster from "node:cluster";
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import {
  isRouteErrorResponse,
  RouterContextProvider,
  ServerRouter,
  type EntryContext,
  type HandleErrorFunction,
} from "react-router";
import { NonceContext } from "~/components/nonce";
import { RequestIdContext } from "~/components/request-id";
import { seedDemoWhenAsked } from "~/services/demo/index.server";
import {
  reminderInstitution,
  runReminders,
  scheduleReminders,
  type RunSummary,
  type Schedule,
} from "~/services/reminders/index.server";
import { getDatabase, getDb, prepareDatabaseWith } from "~/services/platform/db/index.server";
import { env } from "~/services/platform/env.server";
import { getInstance } from "~/services/platform/i18n.server";
import { appSecret } from "~/services/platform/secret.server";
import { currentInstitution } from "~/services/platform/institution.server";
import { checkConfiguration, configurationSummary } from "~/services/platform/configuration.server";
import {
  chooseRequestId,
  logFor,
  newRequestRecord,
  noteError,
  requestRecord,
  requestRecordContext,
  type RequestRecord,
} from "~/services/platform/log.server";
import { mailOrigin, nonceContext } from "~/services/platform/request.server";
import { CROSS_SITE_MESSAGE, isCrossSiteWrite } from "~/services/platform/security";

export const streamTimeout = 5_000;

// The demo is seeded when the database is first opened: before the first request, in `npm start`
// (startup below) and in the development server alike.
prepareDatabaseWith(seedDemoWhenAsked);

// For the HTTP server in front (server.mjs): the log, the request's record, the security headers.
export { log, logRequest } from "~/services/platform/log.server";
export { securityHeaders } from "~/services/platform/request.server";

/**
 * The server's record of a request (it writes the line): the id a trusted proxy sent (the server
 * passes one only when the request came from a proxy TRUST_PROXY names), or a new one.
 */
export function serverRequestRecord(method: string, forwardedId: string | undefined): RequestRecord {
  const record = newRequestRecord(method, chooseRequestId(forwardedId, env().TRUST_PROXY !== false));
  record.loggedByServer = true;
  return record;
}

/** The load context the server hands the app: the request's record, which the server logs. */
export function requestContext(record: RequestRecord): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestRecordContext, record);
  return context;
}

/**
 * For the HTTP server in front: React Router refuses a cross-site action with a bare 400 before any
 * middleware runs, so the server refuses it first, with a 403 that says why.
 */
export function crossSiteRefusal(input: { method: string; origin?: string; referer?: string; host?: string }) {
  const refused = isCrossSiteWrite({
    method: input.method,
    origin: input.origin ?? null,
    referer: input.referer ?? null,
    host: input.host ?? null,
    appUrl: env().APP_URL,
  });
  return refused ? CROSS_SITE_MESSAGE : null;
}

/**
 * Called by the server before it listens: a wrong configuration stops the app here with a clear
 * message, and the database is migrated (and seeded for the demo) before the first request.
 */
let reminderSchedule: Schedule | null = null;

export async function startup(): Promise<Schedule | null> {
  const config = env();
  const log = logFor("config");
  if (config.isProduction && !config.APP_URL) {
    log.warn(
      `APP_URL is not set: links in e-mails point to http://localhost:${config.PORT}, and the Feide/Vipps redirect addresses follow each request's address. Set APP_URL to the public address in production.`,
    );
  }
  if (config.isProduction && config.APP_URL?.startsWith("http://")) {
    log.warn(
      "APP_URL is http: the cookies cannot be Secure (nor carry the __Host- prefix) and no HSTS is sent. Serve the app over https and set APP_URL=https://… in production.",
    );
  }
  // Outside demo mode: the institution's own file (no example value) and a way to send mail.
  checkConfiguration();
  // One line with what is in effect, from the first app process (server.mjs starts it alone);
  // every process outside the cluster (development, tests) says it too.
  if (!cluster.worker || cluster.worker.id === 1) {
    const { message, settings } = configurationSummary();
    log.info({ settings }, message);
  }
  // Made here (on the embedded database) by the first app process, before the others start.
  appSecret();
  await getDatabase();
  // Reminders every REMINDERS_INTERVAL_MINUTES in each app process; the reminder record's unique
  // key makes each go once however many processes and instances run (ADR 0015). One schedule per
  // process: a second start-up (tests) replaces the first instead of adding a second timer.
  reminderSchedule?.stop();
  reminderSchedule = scheduleReminders({
    minutes: config.REMINDERS_INTERVAL_MINUTES,
    db: getDb,
    institution: reminderInstitution(currentInstitution()),
    origin: mailOrigin(),
    onRun: countReminderRun,
  });
  scheduleHousekeeping({ db: getDb, sweeps: { sessions: pruneSessions, codes: pruneCodes } });
  // The records schedule: what is past its period deleted or anonymised, once a day across processes.
  scheduleRetention({ db: getDb, rules: () => retentionRules(currentInstitution()) });
  return reminderSchedule;
}

/** One reminder run, for `npm run reminders` (cron): the same run as the app's own. */
export async function runRemindersOnce(): Promise<RunSummary> {
  env();
  return runReminders(await getDb(), { institution: reminderInstitution(currentInstitution()), origin: mailOrigin() });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  entryContext: EntryContext,
  routerContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // React Router renders OPTIONS without running the middleware: no page to render, just what a
  // page takes (it answered 500 for want of the language before).
  if (request.method.toUpperCase() === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: { Allow: "GET, HEAD, POST, OPTIONS", "Cache-Control": "no-store" },
    });
  }
  const nonce = routerContext.get(nonceContext);
  const requestId = requestRecord(routerContext)?.id ?? "";

  return new Promise((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    // Whole pages, not streamed shells: the no-JS browser must get the complete document.
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RequestIdContext.Provider value={requestId}>
          <I18nextProvider i18n={getInstance(routerContext)}>
            <ServerRouter context={entryContext} url={request.url} nonce={nonce} />
          </I18nextProvider>
        </RequestIdContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          // The whole document is ready: collected and sent as one body. React writes it in many
          // small chunks, and passing each one on cost a socket write and a compression call per
          // chunk: a fifth of a page's CPU time under load (docs/performance.md's profile).
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          noteError(routerContext, error);
        },
      },
    );
  });
}

/**
 * An error React Router caught: kept with the request's record and logged once, with the stack and
 * the request id, if the request ends in a 5xx (log.server.ts). A client's mistake that React
 * Router reports here as an error (a POST to a route without an action answers 405) is not.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (error instanceof Response || isRouteErrorResponse(error)) return;
  noteError(context, error);
};

// The daily housekeeping (scheduled in startup above: ended sessions, expired codes, old rate-limit
// rows and outbox mails, once a day across processes), the records schedule's daily run, and the operator's commands, run through the
// build so they need no devDependencies: `npm run migrate` (scripts/migrate.mjs) and `npm run admin`
// (scripts/admin.mjs).
import { adminCommand, type CommandResult } from "~/services/admin/index.server";
import { pruneCodes, pruneSessions } from "~/services/identity/index.server";
import { scheduleHousekeeping } from "~/services/platform/housekeeping.server";
import { retentionRules, scheduleRetention } from "~/services/records/index.server";
export { closeDatabase, migrateDatabase } from "~/services/platform/db/index.server";

/** `npm run admin -- add|list|remove …`: the lines to print and the exit code. */
export async function runAdminCommand(args: readonly string[]): Promise<CommandResult> {
  env();
  return adminCommand(await getDb(), args);
}

// GET /metrics (scripts/metrics.mjs, through scripts/http-app.mjs): this app process's database pool
// and the reminders its own runs (startup's schedule) sent and failed.
const remindersCounted = { sent: 0, failed: 0 };

export function countReminderRun(summary: RunSummary): void {
  remindersCounted.sent += summary.sent;
  remindersCounted.failed += summary.failed;
}

export async function appMetrics() {
  type PoolCounts = { totalCount: number; idleCount: number; waitingCount: number; options: { max?: number } };
  const pool = ((await getDb()) as unknown as { $client?: PoolCounts }).$client;
  return {
    pool: pool
      ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 0 }
      : null,
    reminders: { ...remindersCounted },
  };
}
