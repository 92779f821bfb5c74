import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedDemo } from "~/services/demo/index.server";
import { knownMigrations } from "~/services/platform/db/client.server";
import { dropDatabase, openTestDatabase, testServerUrl } from "~/test/db";
import { BackupError, readManifest, restoreBackup, writeBackup } from "./index.mjs";
import { applyMigrations, knownMigrations as migrationsWithStatements } from "./migrations.mjs";

// The backup engine against the test run's PostgreSQL: a demo school backed up and restored into a
// new, empty database whole (every table, the row counts, the sequences going on past the ids), and
// the refusals (a damaged or cut-short file, a database that holds data, a newer app's backup).

let dir: string;
let source: Awaited<ReturnType<typeof openTestDatabase>>;
let file: string;
const databases: string[] = [];

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A new, empty database on the test server (no tables), dropped after the file. */
async function emptyDatabase(): Promise<string> {
  const name = `praksis_restore_${crypto.randomBytes(5).toString("hex")}`;
  await query(testServerUrl(), `create database ${name}`);
  databases.push(name);
  const url = new URL(testServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Rows per table of the app's schema (public), by name. */
async function counts(url: string): Promise<Record<string, number>> {
  const tables = await query<{ name: string }>(
    url,
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
  );
  const result: Record<string, number> = {};
  for (const { name } of tables)
    result[name] = (await query<{ n: number }>(url, `select count(*)::int as n from "${name}"`))[0].n;
  return result;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-backup-test-"));
  source = await openTestDatabase();
  await seedDemo(source.db);
  file = path.join(dir, "demo.backup.gz");
});

afterAll(async () => {
  await source.close();
  const admin = new pg.Client({ connectionString: testServerUrl() });
  await admin.connect();
  for (const name of databases) await dropDatabase(admin, name);
  await admin.end();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("backup and restore", () => {
  test("a demo school round trip: every table, every row, the sequences go on past the ids, the manifest says what it holds", async () => {
    const written = await writeBackup({ databaseUrl: source.url, file });
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    expect(written.bytes).toBe(fs.statSync(file).size);
    const before = await counts(source.url);
    const { manifest } = written;
    const latest = knownMigrations().at(-1)!;
    expect(manifest.migration).toMatchObject({ tag: latest.tag, createdAt: latest.when });
    expect(manifest.app.version).toBe(JSON.parse(fs.readFileSync("package.json", "utf8")).version);
    expect(Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]))).toEqual(before);
    expect(manifest.rows).toBeGreaterThan(100);
    expect(await readManifest(file)).toEqual(manifest);

    const target = await emptyDatabase();
    const restored = await restoreBackup({ databaseUrl: target, file });
    expect(restored.tables).toBe(Object.keys(before).length);
    expect(restored.rows).toBe(manifest.rows);
    expect(await counts(target)).toEqual(before);
    // The same rows, not only as many.
    const users = "select id, display_name, email from users order by id";
    expect(await query(target, users)).toEqual(await query(source.url, users));
    const answers = "select id, answer_set_id, question_id, value from answers order by id";
    expect(await query(target, answers)).toEqual(await query(source.url, answers));
    // The schema is the app's (its migrations, applied), and new rows get new ids.
    const applied = await query<{ n: number }>(target, "select count(*)::int as n from drizzle.__drizzle_migrations");
    expect(applied[0].n).toBe(knownMigrations().length);
    const [{ max }] = await query<{ max: number }>(target, "select max(id)::int as max from users");
    const [{ id }] = await query<{ id: number }>(
      target,
      "insert into users (display_name, email) values ('Ny Bruker', 'ny@example.org') returning id",
    );
    expect(id).toBeGreaterThan(max);
  });

  test("a damaged or cut-short file is refused, and nothing is restored", async () => {
    if (!fs.existsSync(file)) await writeBackup({ databaseUrl: source.url, file });
    const whole = fs.readFileSync(file);
    const cut = path.join(dir, "cut.gz");
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    await expect(readManifest(cut)).rejects.toThrow(/cut\.gz is not a whole Praksis backup/);
    await expect(readManifest(cut)).rejects.toBeInstanceOf(BackupError);

    // A changed row in a file that is still a valid gzip: only the checksum can tell.
    const text = zlib.gunzipSync(whole).toString("utf8");
    const altered = path.join(dir, "altered.gz");
    fs.writeFileSync(altered, zlib.gzipSync(text.replace("student01@example.org", "student01@example.net")));
    await expect(readManifest(altered)).rejects.toThrow(/checksum does not match/);

    const flipped = Buffer.from(whole);
    flipped[Math.floor(flipped.length / 2)] ^= 0xff;
    const bad = path.join(dir, "flipped.gz");
    fs.writeFileSync(bad, flipped);
    await expect(readManifest(bad)).rejects.toThrow(/not a whole Praksis backup/);

    const notOne = path.join(dir, "other.gz");
    fs.writeFileSync(notOne, zlib.gzipSync("hello\n"));
    await expect(readManifest(notOne)).rejects.toThrow(/not a Praksis backup/);

    const target = await emptyDatabase();
    await expect(restoreBackup({ databaseUrl: target, file: altered })).rejects.toThrow(/checksum does not match/);
    expect(await counts(target)).toEqual({});
    // Changed after it was verified: the load verifies it again before it commits.
    const verified = await readManifest(file);
    await expect(restoreBackup({ databaseUrl: target, file: altered, verified })).rejects.toThrow(
      /checksum does not match/,
    );
    expect(await counts(target)).toEqual({});
  });

  test("a database that holds data is refused unless told to replace it; replaced, it holds the backup's rows alone", async () => {
    if (!fs.existsSync(file)) await writeBackup({ databaseUrl: source.url, file });
    const target = await openTestDatabase();
    try {
      await query(target.url, "insert into users (display_name, email) values ('Someone Else', 'else@example.org')");
      await expect(restoreBackup({ databaseUrl: target.url, file })).rejects.toThrow(
        /the database holds data \(1 of the app's tables have rows, e\.g\. users\): restore into an empty database, or add --replace/,
      );
      expect(await query(target.url, "select email from users")).toEqual([{ email: "else@example.org" }]);
      await restoreBackup({ databaseUrl: target.url, file, replace: true });
      expect(await counts(target.url)).toEqual(await counts(source.url));
      expect(await query(target.url, "select 1 from users where email = 'else@example.org'")).toEqual([]);
    } finally {
      await target.close();
    }
  });

  test("a migrated but empty database (the app started on it once) is empty: restored without --replace", async () => {
    if (!fs.existsSync(file)) await writeBackup({ databaseUrl: source.url, file });
    const target = await openTestDatabase();
    try {
      await restoreBackup({ databaseUrl: target.url, file });
      expect(await counts(target.url)).toEqual(await counts(source.url));
    } finally {
      await target.close();
    }
  });

  test("a backup from an older schema is restored at its own migration, then migrated to this version's", async () => {
    const migrations = migrationsWithStatements();
    const old = await emptyDatabase();
    const client = new pg.Client({ connectionString: old });
    await client.connect();
    await client.query("begin");
    await applyMigrations(client, migrations.slice(0, -1));
    await client.query("commit");
    await client.query("insert into users (display_name, email) values ('Eldre Bruker', 'eldre@example.org')");
    await client.end();
    const oldFile = path.join(dir, "old.gz");
    const { manifest } = await writeBackup({ databaseUrl: old, file: oldFile });
    expect(manifest.migration?.tag).toBe(migrations.at(-2)!.tag);
    const target = await emptyDatabase();
    await restoreBackup({ databaseUrl: target, file: oldFile });
    expect(await query(target, "select email from users")).toEqual([{ email: "eldre@example.org" }]);
    const applied = await query<{ n: number }>(target, "select count(*)::int as n from drizzle.__drizzle_migrations");
    expect(applied[0].n).toBe(migrations.length);
  });

  test("a backup made by a newer version (a migration this one does not know) is refused", async () => {
    const newer = await openTestDatabase();
    try {
      await query(
        newer.url,
        "insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-the-future', 4102444800000)",
      );
      const newerFile = path.join(dir, "newer.gz");
      await writeBackup({ databaseUrl: newer.url, file: newerFile });
      const target = await emptyDatabase();
      await expect(restoreBackup({ databaseUrl: target, file: newerFile })).rejects.toThrow(
        /the backup was made by a newer version of Praksis .*install that version or a newer one/,
      );
      expect(await counts(target)).toEqual({});
    } finally {
      await newer.close();
    }
  });
});
