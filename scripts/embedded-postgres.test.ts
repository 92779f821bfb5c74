import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, expect, test } from "vitest";
import { nativeDir, startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.mjs";

const manager = path.resolve(import.meta.dirname, "embedded-postgres.mjs");
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-embedded-"));
  fs.chmodSync(dir, 0o755);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function started(options: Parameters<typeof startEmbeddedPostgres>[0]): Promise<EmbeddedPostgres> {
  const server = await startEmbeddedPostgres({ durable: false, ...options });
  cleanups.push(() => server.stop());
  return server;
}

const lines = () => {
  const seen: string[] = [];
  return {
    seen,
    log: { info: (m: string) => seen.push(m), warn: (m: string) => seen.push(m), error: (m: string) => seen.push(m) },
  };
};

async function query(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("a new cluster: generated credentials kept with mode 0600, password required, on a socket in its folder and 127.0.0.1 only, the database made", async () => {
  const dir = folder();
  const server = await started({ dataDir: path.join(dir, "postgres"), database: "praksis" });
  const credentialsFile = path.join(dir, "postgres-credentials.json");
  expect(fs.statSync(credentialsFile).mode & 0o777).toBe(0o600);
  const credentials = JSON.parse(fs.readFileSync(credentialsFile, "utf8"));
  expect(credentials.password.length).toBeGreaterThanOrEqual(32);
  const socketDir = path.join(dir, "postgres");
  expect(server.url).toBe(
    `postgres://praksis:${encodeURIComponent(credentials.password)}@localhost:${server.port}/praksis?host=${encodeURIComponent(socketDir)}`,
  );
  const [settings] = await query(
    server.url,
    "select current_database() as db, current_setting('listen_addresses') as listen, current_setting('unix_socket_directories') as sockets, inet_client_addr() as client",
  );
  // The app's connection comes through the socket in the data folder (no client address).
  expect(settings).toEqual({ db: "praksis", listen: "127.0.0.1", sockets: socketDir, client: null });
  const tcp = `postgres://praksis:${encodeURIComponent(credentials.password)}@127.0.0.1:${server.port}/praksis`;
  expect(await query(tcp, "select inet_client_addr()::text as client")).toEqual([{ client: "127.0.0.1/32" }]);
  // Searches ignore case beyond ASCII (a name search for "ødegård" finds "Ødegård").
  expect(await query(server.url, "select lower('ØDEGÅRD') as lower, 'Ødegård' ilike '%ødeg%' as found")).toEqual([
    { lower: "ødegård", found: true },
  ]);
  for (const address of [tcp, server.url]) {
    const wrong = new URL(address);
    wrong.password = "not-the-password";
    await expect(query(wrong.toString(), "select 1")).rejects.toThrow(/password authentication failed/);
  }
  if (process.getuid?.() === 0) {
    // As root the server runs as an unprivileged user, and owns its folder.
    expect(fs.statSync(path.join(dir, "postgres")).uid).not.toBe(0);
  }
});

test("started again on the same folder, the cluster keeps its data and its credentials", async () => {
  const dir = folder();
  const dataDir = path.join(dir, "postgres");
  const first = await startEmbeddedPostgres({ dataDir, durable: false });
  await query(first.url, "create table kept (n int); insert into kept values (42)");
  await first.stop();
  const second = await started({ dataDir });
  expect(second.url.replace(/\d{4,5}/g, "PORT")).toBe(first.url.replace(/\d{4,5}/g, "PORT"));
  expect(await query(second.url, "select n from kept")).toEqual([{ n: 42 }]);
});

test("a server that dies is reported and started again on the same address", async () => {
  const { seen, log } = lines();
  const server = await started({ dataDir: path.join(folder(), "postgres"), log });
  const first = server.pid!;
  server.crash("SIGKILL");
  const deadline = Date.now() + 30_000;
  let answered = false;
  while (!answered && Date.now() < deadline) {
    answered = await query(server.url, "select 1").then(
      () => true,
      () => false,
    );
    if (!answered) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(answered).toBe(true);
  expect(server.pid).not.toBe(first);
  expect(seen.join("\n")).toMatch(/stopped unexpectedly \(SIGKILL\); starting it again/);
});

test("never two servers on one folder: a live app's server is refused; one left by a killed app is stopped first", async () => {
  const dir = folder();
  const dataDir = path.join(dir, "postgres");
  // Another process (an app) starts the server and stays.
  const other = spawn(process.execPath, [
    "--input-type=module",
    "-e",
    `const { startEmbeddedPostgres } = await import(${JSON.stringify(manager)});
     const s = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, durable: false });
     console.log(s.pid); setInterval(() => {}, 1000);`,
  ]);
  cleanups.push(() => {
    other.kill("SIGKILL");
  });
  const postmaster = await new Promise<number>((resolve, reject) => {
    other.stdout.once("data", (chunk) => resolve(Number(String(chunk).trim())));
    other.once("exit", (code) => reject(new Error(`the other process ended: ${code}`)));
  });
  await expect(startEmbeddedPostgres({ dataDir, durable: false })).rejects.toThrow(
    /another Praksis \(pid \d+\) runs the embedded PostgreSQL/,
  );

  // The app is killed; its server keeps running, orphaned.
  other.kill("SIGKILL");
  await new Promise((resolve) => other.once("exit", resolve));
  expect(alive(postmaster)).toBe(true);
  const { seen, log } = lines();
  const server = await started({ dataDir, log });
  expect(seen.join("\n")).toMatch(new RegExp(`left running by an earlier run \\(pid ${postmaster}\\) is stopped`));
  expect(alive(postmaster)).toBe(false);
  expect(await query(server.url, "select 1 as one")).toEqual([{ one: 1 }]);
});

test("a folder that is neither empty nor a cluster is not touched", async () => {
  const dataDir = path.join(folder(), "postgres");
  fs.mkdirSync(dataDir);
  fs.writeFileSync(path.join(dataDir, "notes.txt"), "mine");
  await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/neither empty nor a PostgreSQL data folder/);
  expect(fs.readdirSync(dataDir)).toEqual(["notes.txt"]);
});

test("on a platform without binaries, start-up stops with a message that names DATABASE_URL", () => {
  const arch = Object.getOwnPropertyDescriptor(process, "arch")!;
  Object.defineProperty(process, "arch", { value: "mips" });
  try {
    expect(() => nativeDir()).toThrow(/no binaries for this platform \(\w+-mips\).*DATABASE_URL=postgres:\/\//s);
  } finally {
    Object.defineProperty(process, "arch", arch);
  }
});
