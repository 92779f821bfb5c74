// `npm run admin` and `npm run migrate` as an operator runs them: node and the production build
// (`npm test` builds it first; run alone, `npm run build` first), on a PostgreSQL of one's own
// (DATABASE_URL) and on the embedded one, whether or not an app runs it.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dropDatabase, testServerUrl } from "~/test/db";
import { startEmbeddedPostgres } from "./embedded-postgres.mjs";

const root = path.resolve(import.meta.dirname, "..");

/** The environment an operator's shell would have: none of the test run's own settings. */
function shell(extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([key]) =>
      !key.startsWith("VITEST") &&
      ![
        "NODE_ENV",
        "TEST_DATABASE_URL",
        "DATABASE_URL",
        "DATA_DIR",
        "LOG_LEVEL",
        "LOG_FORMAT",
        "SESSION_SECRET",
        "DEMO_MODE",
        "SEED_DEMO",
      ].includes(key),
  );
  return { ...Object.fromEntries(kept), ...extra };
}

function run(
  script: "admin" | "migrate",
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "scripts", `${script}.mjs`), ...args], {
      cwd: os.tmpdir(),
      env: shell(env),
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, out, err }));
  });
}

describe("on DATABASE_URL", () => {
  let admin: pg.Client;
  let name: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: testServerUrl() });
    await admin.connect();
    name = `praksis_cmd_${crypto.randomBytes(4).toString("hex")}`;
    await admin.query(`create database ${name}`);
    const url = new URL(testServerUrl());
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString(), SESSION_SECRET: "a-secret-of-at-least-32-characters-0000" };
  });
  afterAll(async () => {
    await dropDatabase(admin, name);
    await admin.end();
  });

  test("npm run migrate names each migration it applies, then finds nothing to do; npm run admin adds the first administrator once, lists them, and keeps the last", async () => {
    const migrated = await run("migrate", [], env);
    expect(migrated.err).toBe("");
    expect(migrated.code).toBe(0);
    expect(migrated.out).toMatch(/INFO {2}\[db\] migration 0000_init applied\n/);
    expect(migrated.out).toMatch(/\[migrate\] \d+ migrations applied: the schema is up to date/);
    expect((await run("migrate", [], env)).out).toContain("[migrate] the schema is up to date: nothing to apply");

    const added = await run("admin", ["add", "Forste.Admin@Example.org", "Første Admin"], env);
    expect(added).toEqual({
      code: 0,
      out: "forste.admin@example.org (Første Admin) is an administrator: a new user, who logs in with an e-mail code sent to that address.\n",
      err: "",
    });
    expect(await run("admin", ["add", "forste.admin@example.org", "Første Admin"], env)).toEqual({
      code: 0,
      out: "forste.admin@example.org (Første Admin) is an administrator already: nothing changed.\n",
      err: "",
    });
    expect((await run("admin", ["list"], env)).out).toBe(
      "1 administrator:\n  forste.admin@example.org  Første Admin\n",
    );
    const refused = await run("admin", ["remove", "forste.admin@example.org"], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("forste.admin@example.org is the last active administrator");

    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query("select action, actor_user_id, details from audit_events order by id");
    await db.end();
    expect(rows).toEqual([
      { action: "admin.added_by_command", actor_user_id: null, details: { by: "command", created: true } },
    ]);
  });
});

describe("on the embedded PostgreSQL", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-admin-"));
    // Reachable by the server's user when run as root (it runs as `nobody`).
    fs.chmodSync(dir, 0o755);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("with no app running, the command starts the server for itself (a new cluster for a new DATA_DIR) and stops it; with the app running, it uses that server", async () => {
    const env = { DATA_DIR: path.join(dir, "data") };
    const added = await run("admin", ["add", "first@example.org", "First Admin"], env);
    expect(added.err).toBe("");
    expect(added.code).toBe(0);
    expect(added.out).toContain("[admin] no app runs the embedded PostgreSQL");
    expect(added.out).toContain("first@example.org (First Admin) is an administrator: a new user");
    // Stopped again: nothing left running on the folder.
    expect(fs.existsSync(path.join(dir, "data/postgres/postmaster.pid"))).toBe(false);

    // As `npm start` runs it (the server in DATA_DIR/postgres, its credentials beside it).
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, "data/postgres"), restart: false });
    try {
      const listed = await run("admin", ["list"], env);
      expect(listed).toEqual({ code: 0, out: "1 administrator:\n  first@example.org  First Admin\n", err: "" });
      expect(server.pid).toBeDefined();
    } finally {
      await server.stop();
    }
  });
});
