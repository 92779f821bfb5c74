// The backup's benchmark on the big school (scripts/ops/big-school.ts, 3,000 students):
//
//   node scripts/ops/backup-bench.mjs [--users 200] [--duration 60] [--school 3000] [--back-to-back]
//
// 1. `npm run load` builds the big school on its embedded PostgreSQL and runs two measured windows
//    of `--duration` seconds with the same `--users` (`--sweep 200,200`): the first without a
//    backup, the second with `npm run backup` started a few seconds into it (against the running
//    app's database, as an operator would). The targets: the backup in ≤ 60 s, and the load's
//    errors 0. Both windows' worst p95 of a page or save, and the autosave's, are printed. A backup
//    of the big school takes a few seconds of the window; `--back-to-back` takes one after another
//    until the window ends, so the second window's figures are those of a load that always has a
//    backup running beside it.
// 2. The backup restored with `npm run restore` into a new, empty data folder (a new embedded
//    server): target ≤ 120 s. Then the app starts on it and /healthz must answer.
//
// The load's own server runs with BACKUPS=off, so the nightly schedule's catch-up cannot fall
// into a window. Prints the figures and exits 1 when a target is missed.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort, root, sleep, startApp, tempDir } from "./support.mjs";

const { values: options } = parseArgs({
  options: {
    users: { type: "string", default: "200" },
    duration: { type: "string", default: "60" },
    school: { type: "string", default: "3000" },
    port: { type: "string", default: "4100" },
    "back-to-back": { type: "boolean", default: false },
  },
});
const TARGET_BACKUP_S = 60;
const TARGET_RESTORE_S = 120;

const work = tempDir("praksis-backup-bench-");
fs.chmodSync(work, 0o755);
const backupFile = path.join(work, "under-load.backup.gz");

/** Runs a command; resolves with its output, status and seconds. `onLine` sees each line as it comes. */
function run(command, args, { env = {}, onLine = () => {} } = {}) {
  return new Promise((resolve) => {
    const began = performance.now();
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let pending = "";
    const take = (chunk) => {
      const text = chunk.toString();
      output += text;
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop();
      for (const line of lines) onLine(line);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("close", (status) => resolve({ status, output, seconds: (performance.now() - began) / 1000 }));
  });
}

const loadDirs = () =>
  new Set(
    fs
      .readdirSync(os.tmpdir())
      .filter((n) => n.startsWith("praksis-load-"))
      .map((n) => path.join(os.tmpdir(), n)),
  );

let failed = false;
try {
  // ─── 1. the load, and a backup in its second window ────────────────────────────────────────────
  const before = loadDirs();
  let windows = 0;
  let backup = null;
  const windowLines = [];
  const backupTimes = [];
  const load = run(
    process.execPath,
    [
      "scripts/load.mjs",
      "--sweep",
      `${options.users},${options.users}`,
      "--duration",
      options.duration,
      "--school",
      options.school,
      "--port",
      options.port,
    ],
    {
      env: { BACKUPS: "off" },
      onLine(line) {
        console.log(line);
        if (/^\[load\] .* users working for \d+ s:/.test(line)) {
          windows++;
          windowLines.push({ window: windows, summary: line, routes: [] });
          if (windows === 1) {
            // The second window begins about 5 s after the first one's report: the backup a few
            // seconds into it.
            const dataDir = [...loadDirs()].find((d) => !before.has(d));
            backup = sleep(8_000).then(async () => {
              const windowEnds = performance.now() + (Number(options.duration) - 5) * 1000;
              let first = null;
              do {
                console.log(`[bench] npm run backup ${backupFile} (DATA_DIR ${dataDir}), under load`);
                fs.rmSync(backupFile, { force: true });
                const result = await run("npm", ["run", "--silent", "backup", "--", backupFile], {
                  env: { DATA_DIR: dataDir, DATABASE_URL: "" },
                });
                console.log(`[bench] ${result.output.trim()}`);
                first ??= result;
                const took = /, ([\d.]+) s \(snapshot/.exec(result.output)?.[1];
                if (took) backupTimes.push(Number(took));
                if (result.status !== 0) return result;
              } while (options["back-to-back"] && performance.now() < windowEnds);
              return first;
            });
          }
        } else if (windowLines.length > 0 && /^ {2}\S.*req\/s/.test(line) && windowLines.at(-1).routes.length < 40) {
          windowLines.at(-1).routes.push(line);
        }
      },
    },
  );
  const loaded = await load;
  const backedUp = await backup;
  if (!backedUp) throw new Error(`the load ended before its first window (status ${loaded.status})`);

  const parse = (summary) => {
    const m = /(\d+) requests, ([\d.]+) req\/s, (\d+) errors; worst p95 of a page or save (\d+) ms/.exec(summary);
    return m ? { requests: Number(m[1]), rps: Number(m[2]), errors: Number(m[3]), worstP95: Number(m[4]) } : null;
  };
  /** The autosave's p50 and p95 in a window ("p50 68.6 / p95 621.4 ms"). */
  const autosave = (w) => {
    const line = w?.routes.find((l) => l.includes("POST /api/answers"));
    return line ? `p50 ${/p50\s+([\d.]+)/.exec(line)?.[1]} / p95 ${/p95\s+([\d.]+)/.exec(line)?.[1]} ms` : "none";
  };
  const [first, second] = windowLines;
  const quiet = parse(first.summary);
  const during = second ? parse(second.summary) : null;
  const wrote = /wrote (\S+): ([^,]+), (\d+) tables, (\d+) rows, ([\d.]+) s/.exec(backedUp.output);
  const backupSeconds = wrote ? Math.max(Number(wrote[5]), ...backupTimes) : null;

  // ─── 2. the restore into a new server ──────────────────────────────────────────────────────────
  const restoreDir = path.join(work, "restored");
  const restored = await run("npm", ["run", "--silent", "restore", "--", backupFile], {
    env: { DATA_DIR: restoreDir, DATABASE_URL: "" },
  });
  console.log(`[bench] ${restored.output.trim()}`);
  let started = null;
  if (restored.status === 0) {
    const port = await freePort();
    const startBegan = performance.now();
    const app = await startApp({ port, dir: restoreDir, env: { BACKUPS: "off" } });
    started = {
      seconds: (performance.now() - startBegan) / 1000,
      health: await (await fetch(`${app.base}/healthz`)).json(),
    };
    await app.stop();
  }

  // ─── figures ───────────────────────────────────────────────────────────────────────────────────
  const size = fs.existsSync(backupFile) ? fs.statSync(backupFile).size : 0;
  console.log("\n[bench] the backup under load, and the restore (big school)");
  console.log(
    `  load: ${options.users} users, two windows of ${options.duration} s, school of ${options.school} students`,
  );
  console.log(
    `  without a backup: ${quiet?.requests} requests, ${quiet?.rps} req/s, ${quiet?.errors} errors, worst p95 ${quiet?.worstP95} ms, autosave ${autosave(first)}`,
  );
  console.log(
    `  with the backup:  ${during?.requests} requests, ${during?.rps} req/s, ${during?.errors} errors, worst p95 ${during?.worstP95} ms, autosave ${autosave(second)}`,
  );
  console.log(
    `  backup: ${backupSeconds} s (target ≤ ${TARGET_BACKUP_S} s), ${(size / 1024 / 1024).toFixed(1)} MiB, ${wrote?.[3]} tables, ${wrote?.[4]} rows; the first npm run backup took ${backedUp.seconds.toFixed(1)} s in all (its start included)`,
  );
  if (backupTimes.length > 1) {
    const sorted = backupTimes.toSorted((a, b) => a - b);
    console.log(
      `  back to back: ${backupTimes.length} backups in the window, each ${sorted[0]}–${sorted.at(-1)} s (median ${sorted[Math.floor(sorted.length / 2)]} s)`,
    );
  }
  console.log(
    `  restore into a new server: ${restored.seconds.toFixed(1)} s for npm run restore (target ≤ ${TARGET_RESTORE_S} s); the app on it ready in ${started?.seconds.toFixed(1)} s, /healthz ${started?.health?.status}`,
  );
  failed =
    loaded.status !== 0 ||
    backedUp.status !== 0 ||
    backupSeconds === null ||
    backupSeconds > TARGET_BACKUP_S ||
    !during ||
    during.errors > 0 ||
    quiet.errors > 0 ||
    restored.status !== 0 ||
    restored.seconds > TARGET_RESTORE_S ||
    started?.health?.status !== "ok";
  if (loaded.status !== 0) console.log(`  the load itself failed (exit ${loaded.status}): see its lines above`);
} catch (error) {
  console.error(`[bench] ${error.stack ?? error}`);
  failed = true;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
