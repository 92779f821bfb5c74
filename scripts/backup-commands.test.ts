import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { seedDemo } from "~/services/demo/index.server";
import { openTestDatabase } from "~/test/db";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.mjs";

// `npm run backup` and `npm run restore` as an operator runs them: one line each saying what was
// done, exit code 0 or 1, and the embedded default's rules (a new data folder gets its cluster, an
// app running on it is refused, a folder holding data is refused unless --replace, and a school's
// data restored into the demo's folder leaves demo mode).

let dir: string;
let source: Awaited<ReturnType<typeof openTestDatabase>>;
let file: string;
const servers: EmbeddedPostgres[] = [];

function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve(import.meta.dirname, script), ...args], {
      env: { ...process.env, DATABASE_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

async function userEmails(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ email: string }>("select email from users order by id")).rows.map((r) => r.email);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-backup-commands-"));
  fs.chmodSync(dir, 0o755);
  source = await openTestDatabase();
  await seedDemo(source.db);
  file = path.join(dir, "school.backup.gz");
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  await source.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("npm run backup writes the file and says so in one line; a wrong argument or an unreachable database is exit code 1", async () => {
  const written = await run("backup.mjs", [file], { DATABASE_URL: source.url });
  expect(written.code).toBe(0);
  expect(written.output).toMatch(
    /^\[backup\] wrote .*school\.backup\.gz: [\d.]+ KiB, \d+ tables, \d+ rows, [\d.]+ s \(snapshot \d{4}-\d\d-\d\dT[\d:.]+Z, migration \w+\)\n$/,
  );
  expect(fs.existsSync(file)).toBe(true);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);

  const usage = await run("backup.mjs", ["--all"], { DATABASE_URL: source.url });
  expect(usage).toEqual({ code: 1, output: expect.stringMatching(/^\[backup\] usage: npm run backup \[FILE\]/) });
  const unreachable = await run("backup.mjs", [path.join(dir, "no.gz")], {
    DATABASE_URL: "postgres://nobody:secret@127.0.0.1:1/praksis",
  });
  expect(unreachable.code).toBe(1);
  expect(unreachable.output).toMatch(/^\[backup\] failed, no backup written: cannot reach the database/);
  expect(unreachable.output).not.toContain("secret");
  expect(fs.existsSync(path.join(dir, "no.gz"))).toBe(false);
  expect(fs.existsSync(path.join(dir, "no.gz.partial"))).toBe(false);
});

test("npm run restore without DATABASE_URL: a new data folder gets its cluster and the backup; a folder holding data needs --replace; an app running on it is refused; the demo's marker goes", async () => {
  if (!fs.existsSync(file)) await run("backup.mjs", [file], { DATABASE_URL: source.url });
  const dataDir = path.join(dir, "data");
  const restored = await run("restore.mjs", [file], { DATA_DIR: dataDir });
  expect(restored.code, restored.output).toBe(0);
  expect(restored.output).toMatch(/a new embedded PostgreSQL cluster in .*data\/postgres\n/);
  expect(restored.output).toMatch(
    /\[restore\] restored .*school\.backup\.gz into the embedded PostgreSQL in .*data\/postgres: \d+ tables, \d+ rows, [\d.]+ s \(snapshot .*, migration \w+\)\n$/,
  );

  const again = await run("restore.mjs", [file], { DATA_DIR: dataDir });
  expect(again.code).toBe(1);
  expect(again.output).toMatch(/\[restore\] the database holds data .* add --replace/);

  fs.writeFileSync(path.join(dataDir, "demo-mode"), "");
  const replaced = await run("restore.mjs", [file, "--replace"], { DATA_DIR: dataDir });
  expect(replaced.code, replaced.output).toBe(0);
  expect(replaced.output).toMatch(/what was there was replaced; demo mode is off for it\)\n$/);
  expect(fs.existsSync(path.join(dataDir, "demo-mode"))).toBe(false);

  // As while `npm start` runs on the folder: its server is up.
  const server = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, "postgres"),
    durable: false,
    restart: false,
  });
  servers.push(server);
  expect(await userEmails(server.url)).toEqual(await userEmails(source.url));
  const running = await run("restore.mjs", [file, "--replace"], { DATA_DIR: dataDir });
  expect(running.code).toBe(1);
  expect(running.output).toMatch(/^\[restore\] an app is running on the embedded PostgreSQL in .*: stop it first/);
});

test("npm run restore refuses a damaged file before it creates anything, and says what to do", async () => {
  if (!fs.existsSync(file)) await run("backup.mjs", [file], { DATABASE_URL: source.url });
  const cut = path.join(dir, "cut.gz");
  fs.writeFileSync(cut, fs.readFileSync(file).subarray(0, 2000));
  const dataDir = path.join(dir, "never");
  const refused = await run("restore.mjs", [cut], { DATA_DIR: dataDir });
  expect(refused).toEqual({
    code: 1,
    output: expect.stringMatching(
      /^\[restore\] cut\.gz is not a whole Praksis backup \(.*\): it is damaged or was cut short; use another backup\n$/,
    ),
  });
  expect(fs.existsSync(dataDir)).toBe(false);
  const missing = await run("restore.mjs", [path.join(dir, "nothing.gz")], { DATA_DIR: dataDir });
  expect(missing.code).toBe(1);
  expect((await run("restore.mjs", [], {})).output).toMatch(/usage: npm run restore FILE \[--replace\]/);
});
