import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { createLog } from "../../../scripts/log.mjs";

/**
 * The app's log (pino, scripts/log.mjs): JSON lines in production, readable lines in development,
 * through `console` in tests. `logFor("db")` gives the lines of one part a `component` field.
 */
export const log = createLog();

export function logFor(component: string) {
  return log.child({ component });
}

/**
 * What one request's log line says. The server in front (server.mjs) makes it, hands it to the app
 * (the load context) and writes the line when the response is sent, static files and refusals
 * included; without that server (development, tests) the app's first middleware makes it and
 * writes the line itself. Never a path or a query string (they may carry an invitation token or a
 * name), a cookie, a code or an answer: the route's pattern stands for the address.
 */
export interface RequestRecord {
  id: string;
  method: string;
  began: number;
  /** The matched route's pattern, e.g. `/student/:studentUserId/form/:formId/…`; `static` for a static file. */
  route?: string;
  userId?: number;
  /** The first unexpected error of the request: logged with the line when it ends in a 5xx. */
  error?: unknown;
  /** The path could not be decoded (bad percent-encoding): the app answers 400. */
  malformedUrl?: boolean;
  /** Whether the server in front writes the line (else the app's middleware does). */
  loggedByServer?: boolean;
  /**
   * The client's address, as the HTTP server (scripts/http-app.mjs) found it: the socket's peer, or
   * what the proxies in front (TRUST_PROXY) report. Never read from a header the client can send.
   */
  clientAddress?: string;
}

const recordsOfRequests = new WeakMap<Request, RequestRecord>();
/**
 * The record of the request being handled, for the loaders and actions the root middleware's
 * `next()` runs: React Router hands them a copy of the request (its own Request object, without
 * `?index` and `_routes`), not the one the middleware saw.
 */
const handling = new AsyncLocalStorage<RequestRecord>();

/** The record of a request the root middleware has seen: that Request object's, or the one being handled. */
export function recordOfRequest(request: Request): RequestRecord | undefined {
  return recordsOfRequests.get(request) ?? handling.getStore();
}

export const requestRecordContext = createContext<RequestRecord | null>(null);

export function requestRecord(context: Readonly<RouterContextProvider>): RequestRecord | null {
  return context.get(requestRecordContext);
}

/** A request id: 12 hex characters, short enough to read out from the error page. */
export function newRequestId(): string {
  return crypto.randomBytes(6).toString("hex");
}

/**
 * The request id: the one a trusted proxy sent in `X-Request-Id` (only with TRUST_PROXY, and only
 * a sane one: letters, digits and `._:-`, at most 100), else a new one.
 */
export function chooseRequestId(forwarded: string | null | undefined, trustProxy: boolean): string {
  if (trustProxy && forwarded && /^[A-Za-z0-9._:-]{1,100}$/.test(forwarded)) return forwarded;
  return newRequestId();
}

export function newRequestRecord(method: string, id: string): RequestRecord {
  return { id, method, began: performance.now() };
}

/** The person the request is for, once the session is known. */
export function noteUser(context: Readonly<RouterContextProvider>, userId: number | undefined): void {
  const record = requestRecord(context);
  if (record && userId !== undefined) record.userId = userId;
}

/**
 * An unexpected error of a request (React Router's handleError, a render error). Kept until the
 * request ends: logged once, with the request's line, if the answer is a 5xx; a client's mistake
 * that React Router reports as an error (a POST to a route without an action: 405) is not logged
 * as one. Outside a request it is logged at once.
 */
export function noteError(context: Readonly<RouterContextProvider> | undefined, error: unknown): void {
  const record = context ? requestRecord(context) : null;
  if (record) record.error ??= error;
  else log.error({ err: error }, "unexpected error outside a request");
}

/**
 * The request's one line: info for answers below 500; warn for a 502, 503 or 504 the app chose to give
 * because something it depends on failed or is away (the database: logged apart; Feide or Vipps
 * answering nonsense or nothing); error with the stack for any other 5xx (an error no one handled is a
 * 500).
 */
export function logRequest(record: RequestRecord, status: number, extra: Record<string, unknown> = {}): void {
  const fields: Record<string, unknown> = {
    reqId: record.id,
    method: record.method,
    route: record.route,
    status,
    ms: Math.round((performance.now() - record.began) * 10) / 10,
    ...(record.userId === undefined ? {} : { userId: record.userId }),
    ...extra,
  };
  const upstream = status === 502 || status === 503 || status === 504;
  if (status >= 500 && !upstream) {
    log.error(record.error === undefined ? fields : { ...fields, err: record.error }, "request failed");
  } else if (status >= 500) {
    log.warn(fields, "request");
  } else {
    log.info(fields, "request");
  }
}

/**
 * First in the root chain: the request's record (the server's, or one of its own), its route, the
 * `X-Request-Id` header on the answer; without a server in front, the request's log line.
 */
export const requestLogMiddleware: MiddlewareFunction<Response> = async ({ request, context, pattern }, next) => {
  let record = requestRecord(context);
  if (!record) {
    record = newRequestRecord(request.method, newRequestId());
    context.set(requestRecordContext, record);
  }
  recordsOfRequests.set(request, record);
  // React Router's pattern has no leading slash ("healthz", "" for the home page).
  record.route = `/${(pattern ?? "").replace(/^\//, "")}`;
  let response: Response;
  try {
    response = await handling.run(record, next);
  } catch (error) {
    noteError(context, error);
    if (!record.loggedByServer) logRequest(record, 500);
    throw error;
  }
  response.headers.set("X-Request-Id", record.id);
  if (!record.loggedByServer) logRequest(record, response.status);
  return response;
};
