import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { freePort } from "../../../../scripts/embedded-postgres.mjs";
import { DatabaseStartError, knownMigrations, openDatabase } from "./client.server";

// The start-up checks and the migrations against Debian's own PostgreSQL (15 on Debian 12), as an
// institution runs it: a cluster of its own, the app's role and database made with the README's SQL
// (no superuser, the database's owner). `npm test` installs Debian's `postgresql` when it is missing
// (scripts/test.sh, as root); run elsewhere without it, this file is skipped and says why. As root,
// the cluster runs as `nobody` (PostgreSQL refuses root).

const DEBIAN = "/usr/lib/postgresql";

/** Debian's PostgreSQL 15 if installed, else the newest Debian version there is (Debian 13 ships 17). */
function debianBin(): string | null {
  if (fs.existsSync(`${DEBIAN}/15/bin/postgres`)) return `${DEBIAN}/15/bin`;
  const versions = fs.existsSync(DEBIAN)
    ? fs
        .readdirSync(DEBIAN)
        .filter((v) => /^\d+$/.test(v) && fs.existsSync(`${DEBIAN}/${v}/bin/postgres`))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions[0] ? `${DEBIAN}/${versions[0]}/bin` : null;
}

const bin = debianBin();
const asRoot = process.getuid?.() === 0;

function account(): { uid: number; gid: number } | null {
  if (!asRoot) return null;
  const id = (flag: string) => Number(spawnSync("id", [flag, "nobody"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

interface Cluster {
  /** The role `praksis` (LOGIN, no superuser) with its password, over TCP, to `database`. */
  url(database: string): string;
  stop(): Promise<void>;
}

/** The README's SQL for the app's role and database (Going live, "The institution's PostgreSQL"). */
function readmeSql(): string[] {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../../../../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### The institution's PostgreSQL"));
  const block = /```sql\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("README.md: no SQL block under ### The institution's PostgreSQL");
  return block
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter(Boolean)
    .map((statement) => statement.replace("'a long random password'", "'app-password'"));
}

const clusters: Cluster[] = [];
afterAll(async () => {
  for (const cluster of clusters) await cluster.stop();
});

/**
 * initdb with `locale`, the server started, and the operator's part as the superuser over the local
 * socket: the README's SQL, and `more` statements.
 */
async function debianCluster(locale: string, more: string[]): Promise<Cluster> {
  const user = account();
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-debian-pg-"));
  fs.chmodSync(dir, 0o755);
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, "data");
  const init = spawnSync(
    `${bin}/initdb`,
    [
      "-D",
      data,
      "-U",
      "postgres",
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "-E",
      "UTF8",
      `--locale=${locale}`,
      "--no-sync",
      "--no-instructions",
    ],
    { ...as, cwd: dir, encoding: "utf8" },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  const server: ChildProcess = spawn(
    `${bin}/postgres`,
    [
      "-D",
      data,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `port=${port}`,
      "-c",
      `unix_socket_directories=${dir}`,
      "-c",
      "fsync=off",
      "-c",
      "full_page_writes=off",
    ],
    { ...as, cwd: dir, stdio: ["ignore", "ignore", "pipe"] },
  );
  let output = "";
  server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const cluster: Cluster = {
    url: (database) => `postgres://praksis:app-password@127.0.0.1:${port}/${database}`,
    async stop() {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGINT");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  clusters.push(cluster);
  let superuser: pg.Client;
  for (let tries = 0; ; tries++) {
    superuser = new pg.Client({ host: dir, port, user: "postgres", database: "postgres" });
    try {
      await superuser.connect();
      break;
    } catch (error) {
      await superuser.end().catch(() => {});
      if (tries > 400 || server.exitCode !== null)
        throw new Error(`the Debian PostgreSQL did not start: ${output || String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    for (const statement of [...readmeSql(), ...more]) await superuser.query(statement);
  } finally {
    await superuser.end();
  }
  return cluster;
}

function lines() {
  const said: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => said.push({ level, message });
  return { said, log: { info: at("info"), warn: at("warn"), error: at("error") } };
}

const skipReason = `${DEBIAN}/15 is not installed (Debian: apt-get install postgresql; npm test installs it when run as root)`;

if (!bin && !asRoot) {
  test.skip(`Debian's PostgreSQL: skipped, ${skipReason}`, () => {});
} else {
  describe("Debian's PostgreSQL", () => {
    test("is there: npm test installs it as root", () => {
      expect(bin, skipReason).not.toBeNull();
    });

    // As in a container where no locale was set: the cluster's default is C. The README's database
    // says its own locale; one made without (inheriting C) is refused.
    let cluster: Cluster | undefined;
    const made = async () => (cluster ??= await debianCluster("C", ["create database praksis_c owner praksis"]));

    test.runIf(bin)(
      "the README's role and database (no superuser, the owner): the checks pass, every migration is applied and named, the connection budget is weighed",
      async () => {
        const { url } = await made();
        const first = lines();
        // As one instance of `npm start` on a 16-core machine: 16 pools of 10, above the default 100.
        const database = await openDatabase({
          url: url("praksis"),
          poolSize: 2,
          log: first.log,
          check: { budget: { poolSize: 10, processes: 16 } },
        });
        try {
          const { rows } = (await database.db.execute(
            sql`select current_setting('server_version_num')::int / 10000 as major, (select rolsuper from pg_roles where rolname = current_user) as superuser, lower('ØRJAN@ÆRØ.NO') as folded`,
          )) as unknown as pg.QueryResult;
          expect(rows[0]).toEqual({
            major: Number(path.basename(path.dirname(bin!))),
            superuser: false,
            folded: "ørjan@ærø.no",
          });
          // The app's own case-insensitive lookup, on its own tables.
          await database.db.execute(sql`insert into users (display_name, email) values ('Ørjan Ås', 'Ørjan@Ærø.no')`);
          const found = (await database.db.execute(
            sql`select display_name from users where lower(email) = lower('ØRJAN@ÆRØ.NO')`,
          )) as unknown as pg.QueryResult;
          expect(found.rows).toEqual([{ display_name: "Ørjan Ås" }]);
        } finally {
          await database.close();
        }
        expect(database.applied).toEqual(knownMigrations().map((m) => m.tag));
        expect(first.said.filter((l) => l.level === "info").map((l) => l.message)).toEqual(
          database.applied.map((tag) => `migration ${tag} applied`),
        );
        expect(first.said.filter((l) => l.level !== "info")).toEqual([
          {
            level: "warn",
            message: expect.stringContaining(
              "this instance may open up to 165 connections to PostgreSQL (16 pools of DATABASE_POOL_SIZE 10, one per app process, + 5 for npm run reminders and the commands), but the server allows 97 (max_connections 100 − 3 reserved)",
            ),
          },
        ]);

        // The next start: nothing to apply; one process's pool fits.
        const second = lines();
        const again = await openDatabase({
          url: url("praksis"),
          poolSize: 2,
          log: second.log,
          check: { budget: { poolSize: 10, processes: 1 } },
        });
        await again.close();
        expect(again.applied).toEqual([]);
        expect(second.said).toEqual([
          {
            level: "info",
            message: expect.stringMatching(
              /^PostgreSQL 1\d\.\d+ .*database praksis \(UTF8, libc C\.UTF-8\): this instance may open up to 15 of its 97 connections/,
            ),
          },
        ]);
      },
    );

    test.runIf(bin)(
      "a database in the cluster's C locale (initdb --locale=C): the start stops before migrating, saying what to do",
      async () => {
        const { url } = await made();
        const error = await openDatabase({ url: url("praksis_c"), poolSize: 1, log: lines().log, check: {} }).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(DatabaseStartError);
        expect((error as Error).message).toContain(
          "the database praksis_c has the locale C, in which lower('Ø') is not 'ø'",
        );
        expect((error as Error).message).toContain(
          "ENCODING 'UTF8' LOCALE 'C.UTF-8' (or 'nb_NO.UTF-8') TEMPLATE template0",
        );
        const client = new pg.Client({ connectionString: url("praksis_c") });
        await client.connect();
        const { rows } = await client.query("select to_regclass('drizzle.__drizzle_migrations') as migrations");
        await client.end();
        expect(rows[0].migrations).toBeNull();
      },
    );
  });
}
