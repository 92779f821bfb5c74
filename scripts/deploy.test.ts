// What a service runs, read as files: the systemd unit, the Dockerfile (no Docker engine here to build
// it), package.json's scripts, and that the server needs only the production dependencies after a
// build (`npm ci --omit=dev`): every package server.mjs, the scripts it loads and the server build
// import is in "dependencies" or "optionalDependencies".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { DEFAULT_GRACE_SECONDS } from "./service.mjs";

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const packageJson = JSON.parse(read("package.json")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The modules a JavaScript file imports (static, dynamic, re-exports, require, a module hook it registers), comments left out. */
function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  const found = new Set<string>();
  const patterns = [
    /^\s*(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
    /\bregister\(\s*["']([^"']+)["']/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.add(match[1]);
  return [...found];
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for a relative path or Node's own module. */
function packageOf(specifier: string): string | null {
  if (
    specifier.startsWith(".") ||
    specifier.startsWith("/") ||
    specifier.startsWith("node:") ||
    specifier.startsWith("file:")
  )
    return null;
  const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
  return builtinModules.includes(name) ? null : name;
}

/** Every package reachable from `files` through relative imports of .mjs/.js files, with the file that imports it. */
function packagesReachedFrom(files: string[]): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(fs.readFileSync(file, "utf8"))) {
      const name = packageOf(specifier);
      if (name) {
        if (!packages.has(name)) packages.set(name, path.relative(root, file));
      } else if (specifier.startsWith(".")) {
        const target = path.resolve(path.dirname(file), specifier);
        if (/\.(mjs|js)$/.test(target) && fs.existsSync(target)) queue.push(target);
      }
    }
  }
  return packages;
}

function jsFilesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".js"))
    .map((f) => path.join(dir, f));
}

describe("production dependencies only", () => {
  const production = new Set([
    ...Object.keys(packageJson.dependencies),
    ...Object.keys(packageJson.optionalDependencies),
  ]);

  test("the import scanner finds every kind of import", () => {
    const source = [
      'import a from "pkg-a";',
      'import { b,\n  c } from "@scope/pkg-b/sub";',
      'import "./local.mjs";',
      'export { d } from "pkg-d";',
      'const e = await import("pkg-e");',
      'register("./hook.mjs", import.meta.url);',
      '// import("commented-out")',
      'const text = "not an import from \\"pkg-x\\"";',
    ].join("\n");
    expect(importsOf(source).sort()).toEqual([
      "./hook.mjs",
      "./local.mjs",
      "@scope/pkg-b/sub",
      "pkg-a",
      "pkg-d",
      "pkg-e",
    ]);
  });

  test("server.mjs, every script it loads, and the operator's commands (npm run admin, migrate, reminders) import production dependencies only", () => {
    const commands = ["admin", "migrate", "reminders"].map((name) => {
      // Each is node on a script of its own: no tool of the devDependencies (tsx, vite) in between.
      const match = /^node (scripts\/[\w-]+\.mjs)$/.exec(packageJson.scripts[name] ?? "");
      expect(match, `npm run ${name}: ${packageJson.scripts[name]}`).not.toBeNull();
      return path.join(root, match![1]);
    });
    const reached = packagesReachedFrom([path.join(root, "server.mjs"), ...commands]);
    // The scanner reaches what server.mjs loads at run time (a sanity check of the scan itself).
    expect([...reached.keys()]).toEqual(expect.arrayContaining(["pino", "express", "pg", "@react-router/express"]));
    const outside = [...reached]
      .filter(([name]) => !production.has(name))
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(outside).toEqual([]);
  });

  const serverBuild = path.join(root, "build/server");
  test.skipIf(!fs.existsSync(path.join(serverBuild, "index.js")))(
    "the server build imports production dependencies only (skipped without a build: npm run build)",
    () => {
      const reached = packagesReachedFrom(jsFilesIn(serverBuild));
      expect([...reached.keys()]).toEqual(expect.arrayContaining(["react", "react-router", "drizzle-orm"]));
      const outside = [...reached]
        .filter(([name]) => !production.has(name))
        .map(([name, file]) => `${name} (imported by ${file})`);
      expect(outside).toEqual([]);
    },
  );

  test("LOG_FORMAT=pretty needs no devDependency: the readable lines are scripts/log.mjs's own", () => {
    expect(importsOf(read("scripts/log.mjs")).filter((s) => packageOf(s))).toEqual(["pino"]);
    expect(read("scripts/log.mjs")).not.toMatch(/pino-pretty|transport\s*:/);
  });
});

describe("package.json's scripts", () => {
  test("npm start and npm run serve hand the process over to node (exec), so npm's SIGTERM reaches the server", () => {
    expect(packageJson.scripts.start).toBe("exec node scripts/start.mjs");
    expect(packageJson.scripts.serve).toBe("exec node server.mjs");
  });

  test("npm start serves in its own process: server.mjs imported, not spawned", () => {
    const start = read("scripts/start.mjs");
    expect(start).toMatch(/await import\(path\.join\(root, "server\.mjs"\)\)/);
    expect(start).not.toMatch(/spawn(Sync)?\([^)]*server\.mjs/);
  });
});

/** A systemd unit's settings: name → every value it is given. */
function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1], [...(settings.get(match[1]) ?? []), match[2].trim()]);
  }
  return settings;
}

/** systemd's time span (`40`, `40s`, `1min 30s`) in seconds. */
function seconds(span: string): number {
  let total = 0;
  for (const [, value, unit] of span.matchAll(/(\d+)\s*(min|s)?/g)) total += Number(value) * (unit === "min" ? 60 : 1);
  return total;
}

describe("deploy/systemd/praksis.service", () => {
  const unit = unitSettings(read("deploy/systemd/praksis.service"));
  const one = (name: string) => {
    const values = unit.get(name) ?? [];
    expect(values, name).toHaveLength(1);
    return values[0];
  };
  const environment = new Map((unit.get("Environment") ?? []).map((line) => line.split("=", 2) as [string, string]));

  test("runs node server.mjs (not npm, which builds or adds a shell) as an unprivileged user, from the app's folder", () => {
    expect(one("User")).toMatch(/^(?!root$)\w[\w-]*$/);
    expect(one("WorkingDirectory")).toBe("/opt/praksis");
    expect(one("ExecStart")).toBe("/usr/bin/node /opt/praksis/server.mjs");
    expect(one("EnvironmentFile")).toBe("/etc/praksis/env");
    expect(environment.get("NODE_ENV")).toBe("production");
  });

  test("stops by SIGTERM to server.mjs alone, with more time than the grace period; restarts after a failure", () => {
    expect(one("KillSignal")).toBe("SIGTERM");
    // control-group would send SIGTERM to the app processes and PostgreSQL too, before the drain.
    expect(one("KillMode")).toBe("mixed");
    const grace = Number(environment.get("SHUTDOWN_GRACE_SECONDS") ?? DEFAULT_GRACE_SECONDS);
    // The primary kills an app process 5 s after the grace period; then PostgreSQL stops.
    expect(seconds(one("TimeoutStopSec"))).toBeGreaterThanOrEqual(grace + 15);
    expect(one("Restart")).toBe("on-failure");
  });

  const analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].find((file) => fs.existsSync(file));
  test.skipIf(!analyze)(
    "systemd-analyze verify finds nothing wrong in it (skipped where systemd is not installed)",
    () => {
      const result = spawnSync(analyze!, ["verify", path.join(root, "deploy/systemd/praksis.service")], {
        encoding: "utf8",
      });
      expect(`${result.stdout}${result.stderr}`.trim()).toBe("");
      expect(result.status).toBe(0);
    },
  );

  test("is hardened, and may write DATA_DIR only", () => {
    expect(one("NoNewPrivileges")).toBe("yes");
    expect(one("ProtectSystem")).toBe("strict");
    expect(one("PrivateTmp")).toBe("yes");
    expect(one("ProtectHome")).toBe("yes");
    expect(one("CapabilityBoundingSet")).toBe("");
    const dataDir = environment.get("DATA_DIR");
    expect(dataDir).toBe("/var/lib/praksis");
    expect(one("ReadWritePaths").split(/\s+/)).toEqual([dataDir]);
    expect(`/var/lib/${one("StateDirectory")}`).toBe(dataDir);
  });
});

/** The Dockerfile's stages: each FROM line and the instructions under it (continuation lines joined). */
function dockerStages(text: string): { from: string; lines: string[] }[] {
  const stages: { from: string; lines: string[] }[] = [];
  const joined = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  for (const line of joined) {
    if (/^FROM\s/i.test(line)) stages.push({ from: line.slice(5).trim(), lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

describe("Dockerfile", () => {
  const stages = dockerStages(read("Dockerfile"));
  const runtime = stages.at(-1)!;
  const build = stages[0];
  const instruction = (stage: { lines: string[] }, name: string) =>
    stage.lines.filter((l) => l.toUpperCase().startsWith(`${name} `));
  const engine = (packageJson as unknown as { engines: { node: string } }).engines.node;

  test("builds in a stage of its own, with the devDependencies", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(build.from).toMatch(/ AS build$/i);
    const runs = instruction(build, "RUN").join("\n");
    expect(runs).toMatch(/npm ci(?! --omit)/);
    expect(runs).toMatch(/npm run build/);
  });

  test("runs on Node 20 (package.json's engines) with the production dependencies and the build only", () => {
    expect(engine).toMatch(/^>=20\./);
    expect(runtime.from).toBe("node:20-bookworm-slim");
    const runs = instruction(runtime, "RUN").join("\n");
    expect(runs).toMatch(/npm ci --omit=dev/);
    expect(runs).not.toMatch(/npm ci(?! --omit=dev)|npm install|npm run build/);
    expect(instruction(runtime, "COPY")).toContain("COPY --from=build /app/build ./build");
    // What the server reads besides the build: its scripts, the migrations, the PDF fonts, public/.
    for (const needed of ["server.mjs", "scripts", "drizzle", "resources", "public"]) {
      expect(
        instruction(runtime, "COPY").some((l) => l.split(/\s+/).includes(needed)),
        needed,
      ).toBe(true);
      expect(fs.existsSync(path.join(root, needed)), needed).toBe(true);
    }
  });

  test("runs node server.mjs as an unprivileged user; DATA_DIR is a volume; a health check on /healthz; stops by SIGTERM", () => {
    const user = instruction(runtime, "USER").at(-1);
    expect(user).toBeDefined();
    expect(user!.split(/\s+/)[1]).not.toMatch(/^(root|0)(:|$)/);
    const env = instruction(runtime, "ENV").join(" ");
    const dataDir = /DATA_DIR=(\S+)/.exec(env)?.[1];
    expect(dataDir).toBe("/var/lib/praksis");
    expect(instruction(runtime, "VOLUME").join(" ")).toContain(`"${dataDir}"`);
    const port = /PORT=(\d+)/.exec(env)?.[1];
    expect(instruction(runtime, "EXPOSE")).toEqual([`EXPOSE ${port}`]);
    // In a container the published port reaches the app only on every interface (the demo's default is loopback).
    expect(env).toMatch(/HOST=0\.0\.0\.0/);
    expect(instruction(runtime, "HEALTHCHECK").join(" ")).toMatch(/\/healthz/);
    expect(instruction(runtime, "STOPSIGNAL")).toEqual(["STOPSIGNAL SIGTERM"]);
    expect(instruction(runtime, "CMD")).toEqual(['CMD ["node", "server.mjs"]']);
    expect(runtime.lines.join("\n")).not.toMatch(/\bnpm (start|run serve)\b/);
  });

  test(".dockerignore keeps out what npm ci and the build make, the data and secrets", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", "build", "data", ".git", ".env", "test-results"]));
    for (const needed of [
      "server.mjs",
      "scripts",
      "drizzle",
      "resources",
      "public",
      "app",
      "package.json",
      "package-lock.json",
    ])
      expect(ignored).not.toContain(needed);
  });
});
