import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createLog, logSettings, readableLine, serializeError } from "../../../scripts/log.mjs";
import {
  chooseRequestId,
  log,
  logRequest,
  newRequestRecord,
  noteError,
  noteUser,
  requestRecordContext,
} from "./log.server";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the request id", () => {
  test("is made here unless a trusted proxy sent a sane one", () => {
    expect(chooseRequestId(undefined, false)).toMatch(/^[0-9a-f]{12}$/);
    expect(chooseRequestId("proxy-id-1", false)).not.toBe("proxy-id-1");
    expect(chooseRequestId("proxy-id-1", true)).toBe("proxy-id-1");
    expect(chooseRequestId("d6f1c0de:42.a_b-c", true)).toBe("d6f1c0de:42.a_b-c");
    // Not a log injection, not a novel.
    for (const bad of ["two\nlines", "<script>", "x".repeat(101), "", "a b"])
      expect(chooseRequestId(bad, true)).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe("the request's line", () => {
  function spies() {
    return {
      info: vi.spyOn(log, "info").mockImplementation(() => {}),
      warn: vi.spyOn(log, "warn").mockImplementation(() => {}),
      error: vi.spyOn(log, "error").mockImplementation(() => {}),
    };
  }

  test("a client's mistake is an info line, even when React Router reported an error for it (405)", () => {
    const { info, error } = spies();
    const context = new RouterContextProvider();
    const record = newRequestRecord("POST", "abc123abc123");
    context.set(requestRecordContext, record);
    record.route = "/healthz";
    noteError(context, new Error('You made a POST request to "/healthz" but did not provide an `action`'));
    noteUser(context, 7);
    logRequest(record, 405);
    expect(error).not.toHaveBeenCalled();
    expect(info).toHaveBeenCalledWith(
      { reqId: "abc123abc123", method: "POST", route: "/healthz", status: 405, ms: expect.any(Number), userId: 7 },
      "request",
    );
  });

  test("a 5xx is one error line with the first error (its stack) and the request id; a 503 a warning", () => {
    const { warn, error } = spies();
    const context = new RouterContextProvider();
    const record = newRequestRecord("GET", "feedfacecafe");
    context.set(requestRecordContext, record);
    const first = new Error("first");
    noteError(context, first);
    noteError(context, new Error("second, from rendering the error page"));
    logRequest(record, 500);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ reqId: "feedfacecafe", status: 500, err: first }),
      "request failed",
    );
    logRequest(newRequestRecord("GET", "a"), 503);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ status: 503 }), "request");
    // A provider (Feide, Vipps) that answered nonsense or nothing: the app says so with a 502 or 504 page.
    logRequest(newRequestRecord("GET", "b"), 502);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ status: 502 }), "request");
    logRequest(newRequestRecord("GET", "c"), 504);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ status: 504 }), "request");
    expect(error).toHaveBeenCalledTimes(1);
  });

  test("an error outside any request is logged at once", () => {
    const { error } = spies();
    noteError(undefined, new Error("at start-up"));
    expect(error).toHaveBeenCalledTimes(1);
  });
});

describe("what an error line says", () => {
  test("a failed query's parameters (what was typed, an address, a code) are kept out", () => {
    const cause = new Error('relation "answers" does not exist');
    const failed = Object.assign(
      new Error(
        'Failed query: insert into "answers" ("text") values ($1)\nparams: Min hemmelige refleksjon\nover to linjer,123456',
        { cause },
      ),
      {
        name: "DrizzleQueryError",
        query: 'insert into "answers" ("text") values ($1)',
        params: ["Min hemmelige refleksjon\nover to linjer", "123456"],
      },
    );
    const serialised = JSON.stringify(serializeError(failed));
    expect(serialised).toContain('Failed query: insert into \\"answers\\"');
    expect(serialised).toContain('relation \\"answers\\" does not exist');
    expect(serialised).toContain("DrizzleQueryError");
    expect(serialised).not.toMatch(/hemmelige|to linjer|123456/);
  });

  test("the readable line (development): level, component, message, fields, then the stack", () => {
    const line = readableLine({
      level: 40,
      time: 0,
      component: "db",
      msg: "PostgreSQL is unavailable",
      reqId: "abc",
      status: 503,
    });
    expect(line).toMatch(/^\d\d:\d\d:\d\d WARN {2}\[db\] PostgreSQL is unavailable reqId=abc status=503$/);
    expect(
      readableLine(
        { level: 50, msg: "request failed", err: { type: "Error", message: "x", stack: "Error: x\n    at f" } },
        { time: false },
      ),
    ).toBe("request failed\nError: x\n    at f");
    expect(
      readableLine(
        { level: 30, msg: "request", reqId: "abc", method: "GET", route: "/login", status: 200, ms: 12.5, userId: 3 },
        { time: false },
      ),
    ).toBe("GET /login 200 12.5 ms reqId=abc userId=3");
  });
});

describe("what the log keeps out, and what it keeps", () => {
  function lines(write: (log: ReturnType<typeof createLog>) => void): Record<string, unknown>[] {
    const written: string[] = [];
    const log = createLog({
      env: { LOG_FORMAT: "json" },
      destination: { write: (line: string) => void written.push(line) },
    });
    write(log);
    return written.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  test("an error's code is logged (a system error's, a SQLSTATE), a log-in or authorization code is not", () => {
    const [refused, readOnly, unique, login, form, query] = lines((log) => {
      log.error(
        { err: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }) },
        "db",
      );
      log.error({ err: Object.assign(new Error("read-only file system"), { code: "EROFS" }) }, "outbox");
      log.error(
        { err: Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" }) },
        "insert",
      );
      log.info({ email: "x", code: "123456" }, "a caller's mistake");
      log.info({ form: { email: "x", code: "654321" } }, "a form by mistake");
      log.info({ query: { code: "oidc-authorization-code", state: "s" } }, "a callback's query by mistake");
    });
    expect((refused.err as { code: string }).code).toBe("ECONNREFUSED");
    expect((readOnly.err as { code: string }).code).toBe("EROFS");
    expect((unique.err as { code: string }).code).toBe("23505");
    expect(login.code).toBe("[kept out]");
    expect((form.form as { code: string }).code).toBe("[kept out]");
    expect((query.query as { code: string }).code).toBe("[kept out]");
    expect(JSON.stringify([login, form, query])).not.toMatch(/123456|654321|oidc-authorization-code/);
  });

  test("cookies, passwords and the authorization header stay out", () => {
    const [line] = lines((log) =>
      log.info({ headers: { cookie: "s=1", authorization: "Bearer t" }, db: { password: "pw" }, cookie: "c" }, "x"),
    );
    expect(JSON.stringify(line)).not.toMatch(/s=1|Bearer t|"pw"|"c"/);
  });

  test("the readable line shows an error's code the message does not carry", () => {
    expect(
      readableLine(
        {
          level: 50,
          msg: "insert",
          err: { type: "Error", message: "duplicate key", stack: "Error: duplicate key\n    at f", code: "23505" },
        },
        { time: false },
      ),
    ).toBe("insert\nError: duplicate key\n    at f [code 23505]");
  });

  test("a wrong LOG_LEVEL or LOG_FORMAT stops the logger with a message naming it", () => {
    expect(logSettings({ LOG_LEVEL: "verbose", LOG_FORMAT: "json" }).problems).toEqual([
      "LOG_LEVEL: verbose is not one of trace, debug, info, warn, error, fatal, silent",
    ]);
    expect(logSettings({ LOG_FORMAT: "xml" }).problems).toEqual(["LOG_FORMAT: xml is not json, pretty or console"]);
    expect(logSettings({ LOG_LEVEL: "debug", LOG_FORMAT: "json" })).toMatchObject({ level: "debug", problems: [] });
    expect(() => createLog({ env: { LOG_LEVEL: "verbose", VITEST: "true" } })).toThrow(
      /LOG_LEVEL: verbose is not one of/,
    );
  });
});
