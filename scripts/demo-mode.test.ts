import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { DEMO_MARKER, applyDemoMode, demoModeRule, type DemoModeInput } from "./demo-mode.mjs";

type Vars = Partial<Pick<DemoModeInput, "DEMO_MODE" | "SEED_DEMO" | "databaseUrl" | "SMTP_URL">>;
type Found = Partial<Pick<DemoModeInput, "freshDatabase" | "demoDatabase">>;

const base = { freshDatabase: false, demoDatabase: false };
const PG = "postgres://praksis:pw@db.example.org/praksis";
const SMTP = "smtp://mail.example.org";

// Every combination of what the operator sets and what the launcher finds: on or off, and why.
test.each<[Vars, Found, boolean, string]>([
  // Nothing set: only a fresh embedded database, or one started as the demo.
  [{}, { freshDatabase: true }, true, "write"],
  [{}, { demoDatabase: true }, true, "keep"],
  [{}, {}, false, "keep"],
  // Never by itself with a PostgreSQL or an SMTP server of one's own.
  [{ databaseUrl: PG }, { freshDatabase: true }, false, "keep"],
  [{ databaseUrl: PG }, { demoDatabase: true }, false, "keep"],
  [{ SMTP_URL: SMTP }, { freshDatabase: true }, false, "keep"],
  [{ SMTP_URL: SMTP }, { demoDatabase: true }, false, "keep"],
  [{ databaseUrl: PG, SMTP_URL: SMTP }, { freshDatabase: true }, false, "keep"],
  // Asked for: on anywhere (the operator's value stands, nothing is set).
  [{ DEMO_MODE: "true", databaseUrl: PG }, {}, true, "keep"],
  [{ DEMO_MODE: "1", SMTP_URL: SMTP }, {}, true, "keep"],
  [{ DEMO_MODE: "true" }, {}, true, "keep"],
  // Switched off: off for good (the marker goes), the data stays.
  [{ DEMO_MODE: "false" }, { freshDatabase: true }, false, "remove"],
  [{ DEMO_MODE: "0" }, { demoDatabase: true }, false, "remove"],
  // The older SEED_DEMO means the same; DEMO_MODE wins when both are set.
  [{ SEED_DEMO: "true", databaseUrl: PG }, {}, true, "keep"],
  [{ SEED_DEMO: "false" }, { demoDatabase: true }, false, "remove"],
  [{ SEED_DEMO: "true", DEMO_MODE: "false" }, { demoDatabase: true }, false, "remove"],
  [{ SEED_DEMO: "false", DEMO_MODE: "true" }, {}, true, "keep"],
  // Empty means unset.
  [{ DEMO_MODE: "", SEED_DEMO: "" }, { freshDatabase: true }, true, "write"],
  [{ DEMO_MODE: "", SEED_DEMO: "true", databaseUrl: PG }, {}, true, "keep"],
])("%j on %j: %s", (vars, found, on, marker) => {
  const decision = demoModeRule({ ...base, ...found, ...vars });
  expect(decision.on).toBe(on);
  expect(decision.marker).toBe(marker);
  const asked = [vars.DEMO_MODE, vars.SEED_DEMO].some((v) => v !== undefined && v !== "");
  // The launcher fills in DEMO_MODE only when the operator set neither variable.
  expect(decision.set).toBe(asked ? undefined : on ? "true" : "false");
});

test("a wrong value is left to the app's configuration check, which names it", () => {
  expect(demoModeRule({ ...base, DEMO_MODE: "yes", freshDatabase: true })).toMatchObject({
    on: undefined,
    set: undefined,
    marker: "keep",
  });
});

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function logger() {
  const lines: string[] = [];
  return {
    lines,
    log: { info: (line: string) => lines.push(`info ${line}`), warn: (line: string) => lines.push(`warn ${line}`) },
  };
}

test("at start-up: a fresh embedded database is the demo, and stays the demo at the next start until switched off", () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-demo-"));
  const first = logger();
  const env: NodeJS.ProcessEnv = {};
  applyDemoMode({ env, dataDir: dir, freshDatabase: true, log: first.log });
  expect(env.DEMO_MODE).toBe("true");
  expect(fs.existsSync(path.join(dir, DEMO_MARKER))).toBe(true);
  expect(first.lines).toEqual([
    expect.stringMatching(/^warn \[demo\] Demo mode is on .*log-in codes are public at \/dev\/outbox/),
  ]);

  const second: NodeJS.ProcessEnv = {};
  applyDemoMode({ env: second, dataDir: dir, freshDatabase: false, log: logger().log });
  expect(second.DEMO_MODE).toBe("true");

  // Switched off: the marker goes, so dropping the variable later does not bring the demo back.
  const off: NodeJS.ProcessEnv = { DEMO_MODE: "false" };
  applyDemoMode({ env: off, dataDir: dir, freshDatabase: false, log: logger().log });
  expect(off.DEMO_MODE).toBe("false");
  expect(fs.existsSync(path.join(dir, DEMO_MARKER))).toBe(false);
  const later: NodeJS.ProcessEnv = {};
  const quiet = logger();
  applyDemoMode({ env: later, dataDir: dir, freshDatabase: false, log: quiet.log });
  expect(later.DEMO_MODE).toBe("false");
  expect(quiet.lines).toEqual([expect.stringMatching(/^info \[demo\] Demo mode is off .*DEMO_MODE=true turns it on/)]);
});

test("at start-up with SMTP_URL, or with a DATABASE_URL of one's own, demo mode stays off and says nothing", () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-demo-"));
  for (const [env, databaseUrl] of [
    [{ SMTP_URL: SMTP }, undefined],
    [{}, PG],
  ] as const) {
    const target: NodeJS.ProcessEnv = { ...env };
    const { lines, log } = logger();
    applyDemoMode({ env: target, dataDir: dir, databaseUrl, freshDatabase: true, log });
    expect(target.DEMO_MODE).toBe("false");
    expect(lines).toEqual([]);
    expect(fs.existsSync(path.join(dir, DEMO_MARKER))).toBe(false);
  }
});

test("asked for with SMTP_URL: on, and the log does not send anyone to an outbox that is not there", () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-demo-"));
  const { lines, log } = logger();
  applyDemoMode({
    env: { DEMO_MODE: "true", SMTP_URL: SMTP },
    dataDir: dir,
    databaseUrl: PG,
    freshDatabase: false,
    log,
  });
  expect(lines).toEqual([expect.stringMatching(/^warn \[demo\] Demo mode is on \(asked for\)/)]);
  expect(lines[0]).not.toContain("/dev/outbox");
});
