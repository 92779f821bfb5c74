// The app's log (pino): one JSON object per line in production, for a log shipper or `jq`;
// a short readable line in development; and in tests through `console`, so the house rule
// (a stray console.error fails a test) still sees errors. Used by server.mjs, the scripts
// and the app (app/services/platform/log.server.ts), so every line has the same shape.
//
// Fields: `level` (30 info, 40 warn, 50 error), `time`, `msg`, `component` (what logs: db, mail,
// server, …; the old `[db]` prefixes), and per request `reqId`, `method`, `route`, `status`, `ms`,
// `userId`; an error's stack is in `err`.
import pino from "pino";

/** `json` (production), `pretty` (development) or `console` (tests). LOG_FORMAT overrides. */
export function logFormat(env = process.env) {
  const chosen = env.LOG_FORMAT;
  if (chosen === "json" || chosen === "pretty" || chosen === "console") return chosen;
  if (env.NODE_ENV === "production") return "json";
  if (env.NODE_ENV === "test" || env.VITEST) return "console";
  return "pretty";
}

const LEVELS = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const SHOWN_APART = new Set(["level", "time", "msg", "component", "pid", "hostname", "err", "v"]);

/** One log object as a readable line: `08:01:02 WARN  [db] message key=value`, then the stack. */
export function readableLine(entry, { time = true } = {}) {
  const parts = [];
  if (time) parts.push(new Date(entry.time ?? Date.now()).toTimeString().slice(0, 8));
  if (time) parts.push((LEVELS[entry.level] ?? String(entry.level)).padEnd(5));
  if (entry.component) parts.push(`[${entry.component}]`);
  // A request's line reads like an access log: `GET /login 303 12.5 ms`, then the rest.
  const request = (entry.msg === "request" || entry.msg === "request failed") && "method" in entry;
  if (request) parts.push(`${entry.method} ${entry.route ?? "-"} ${entry.status} ${entry.ms} ms`);
  if (entry.msg && !(request && entry.msg === "request")) parts.push(entry.msg);
  const rest = Object.entries(entry)
    .filter(([key]) => !SHOWN_APART.has(key) && !(request && ["method", "route", "status", "ms"].includes(key)))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  if (rest.length > 0) parts.push(rest.join(" "));
  let line = parts.join(" ");
  if (entry.err) {
    const stack = entry.err.stack ?? `${entry.err.type ?? "Error"}: ${entry.err.message}`;
    // A system error's or PostgreSQL's code (ECONNREFUSED, 23505) when the message does not say it.
    const code =
      entry.err.code !== undefined && !String(stack).includes(String(entry.err.code))
        ? ` [code ${entry.err.code}]`
        : "";
    line += `\n${stack}${code}`;
  }
  return line;
}

function readableDestination() {
  return {
    write(json) {
      const entry = JSON.parse(json);
      (entry.level >= 40 ? process.stderr : process.stdout).write(`${readableLine(entry)}\n`);
    },
  };
}

/** In tests: each line through console.error/warn/info, as `[component] message …`. */
function consoleDestination() {
  return {
    write(json) {
      const entry = JSON.parse(json);
      const line = readableLine(entry, { time: false });
      if (entry.level >= 50) console.error(line);
      else if (entry.level >= 40) console.warn(line);
      else if (entry.level >= 30) console.info(line);
      else console.debug(line);
    },
  };
}

/**
 * An error as logged: pino's serializer, but a failed query's parameters (drizzle puts them in the
 * message and on the error: a typed answer, an address, a code) are kept out.
 */
export function serializeError(error) {
  if (error instanceof Error && "params" in error && error.message.includes("\nparams: ")) {
    const message = error.message.replace(/\nparams: [\s\S]*$/, "\nparams: [kept out]");
    const clean = new Error(message, { cause: error.cause });
    clean.name = error.name;
    clean.stack = (error.stack ?? "").replace(error.message, message);
    error = clean;
  }
  return pino.stdSerializers.err(error);
}

/** The logger's levels (pino's), lowest first; LOG_LEVEL must be one of them. */
export const LEVEL_NAMES = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/**
 * Kept out of every line, whatever a caller passes by mistake: a log-in code or an OpenID
 * authorization code where a caller would have it (top level, or in what a form, a body or a query
 * held), cookies, passwords and the authorization header. By exact path: an error's `code`
 * (`err.code`: ECONNREFUSED, EROFS, a SQLSTATE) is what an operator needs, and stays.
 */
export const REDACTED_PATHS = [
  "code",
  "otp",
  "password",
  "cookie",
  "form.code",
  "body.code",
  "fields.code",
  "values.code",
  "query.code",
  "params.code",
  "searchParams.code",
  "headers.cookie",
  "headers.authorization",
  "*.cookie",
  "*.password",
];

/** LOG_FORMAT and LOG_LEVEL as the logger reads them, and what is wrong with them (each a line naming the variable). */
export function logSettings(env = process.env) {
  const format = logFormat(env);
  const problems = [];
  if (env.LOG_FORMAT && env.LOG_FORMAT !== format)
    problems.push(`LOG_FORMAT: ${env.LOG_FORMAT} is not json, pretty or console`);
  let level = format === "console" ? "warn" : "info";
  if (LEVEL_NAMES.includes(env.LOG_LEVEL)) level = env.LOG_LEVEL;
  else if (env.LOG_LEVEL) problems.push(`LOG_LEVEL: ${env.LOG_LEVEL} is not one of ${LEVEL_NAMES.join(", ")}`);
  return { format, level, problems };
}

/**
 * The root logger; `bindings` are on every line (e.g. `{ component: "server" }`). A wrong LOG_LEVEL
 * or LOG_FORMAT stops the process with a message naming it (before anything else is logged, like
 * any other wrong setting); under vitest it throws instead. `destination` is for tests.
 */
export function createLog({ env = process.env, bindings, destination } = {}) {
  const { format, level, problems } = logSettings(env);
  if (problems.length > 0) {
    const message = `Invalid configuration (environment variables):\n${problems.map((p) => `  ${p}`).join("\n")}`;
    if (env.VITEST !== undefined || destination) throw new Error(message);
    process.stderr.write(`\n${message}\n\nSee the configuration table in README.md.\n\n`);
    process.exit(1);
  }
  const options = {
    level,
    // No pid/hostname noise in development; in production the pid tells the app processes apart.
    base: format === "json" ? { pid: process.pid } : {},
    redact: { paths: REDACTED_PATHS, censor: "[kept out]" },
    serializers: { err: serializeError },
  };
  destination ??=
    format === "json"
      ? pino.destination({ dest: 1, sync: true })
      : format === "console"
        ? consoleDestination()
        : readableDestination();
  const log = pino(options, destination);
  return bindings ? log.child(bindings) : log;
}

/**
 * `console.*` calls that are not the app's own (a library's warning, a line not yet moved to the
 * logger) become log lines too, so production output stays one JSON object per line. A leading
 * `[name]` becomes the component.
 */
export function routeConsoleTo(log) {
  const line = (args) => {
    const error = args.find((a) => a instanceof Error);
    const text = args
      .filter((a) => a !== error)
      .map((a) => (typeof a === "string" ? a : a instanceof Error ? a.message : JSON.stringify(a)))
      .join(" ");
    const match = /^\[([\w .-]{1,40})\]\s*/.exec(text);
    const fields = {};
    if (match) fields.component = match[1];
    if (error) fields.err = error;
    return [fields, match ? text.slice(match[0].length) : text];
  };
  console.log = console.info = (...args) => log.info(...line(args));
  console.warn = (...args) => log.warn(...line(args));
  console.error = (...args) => log.error(...line(args));
  console.debug = (...args) => log.debug(...line(args));
}
