import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { parseEnv } from "~/services/platform/env.server";
import {
  cannotListenMessage,
  checkCanListen,
  listenHost,
  prepareForAccount,
  runAsAccount,
  ServiceError,
  shutdownGraceSeconds,
  urlHost,
} from "./service.mjs";

const asRoot = process.getuid?.() === 0;
const passwd = [
  "root:x:0:0:root:/root:/bin/bash",
  "praksis:x:998:997::/var/lib/praksis:/usr/sbin/nologin",
  "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin",
].join("\n");

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-service-"));
  made.push(dir);
  fs.chmodSync(dir, 0o755);
  return dir;
}

describe("where it listens", () => {
  test("HOST wins; else loopback in demo mode (its /dev/outbox shows log-in codes), every interface outside it", () => {
    expect(listenHost({}, true)).toBe("127.0.0.1");
    expect(listenHost({}, false)).toBe("0.0.0.0");
    expect(listenHost({ HOST: "" }, true)).toBe("127.0.0.1");
    expect(listenHost({ HOST: "0.0.0.0" }, true)).toBe("0.0.0.0");
    expect(listenHost({ HOST: "10.1.2.3" }, false)).toBe("10.1.2.3");
    expect(urlHost("::1")).toBe("[::1]");
    expect(urlHost("127.0.0.1")).toBe("127.0.0.1");
  });

  test("a port in use is one line that says what to do", async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      expect(await checkCanListen(port, "127.0.0.1")).toBe(
        `PORT ${port} is in use on 127.0.0.1: another Praksis or program listens there; stop it or set PORT`,
      );
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    expect(await checkCanListen(port, "127.0.0.1")).toBeNull();
    expect(cannotListenMessage({ code: "EADDRNOTAVAIL" }, "10.9.9.9", 3000)).toMatch(
      /^HOST 10\.9\.9\.9 is not an address of this machine/,
    );
    expect(cannotListenMessage({ code: "EACCES" }, "0.0.0.0", 80)).toMatch(/^PORT 80 on 0\.0\.0\.0 is not allowed/);
    expect(cannotListenMessage({ code: "EOTHER" }, "0.0.0.0", 80)).toBeNull();
  });
});

test("SHUTDOWN_GRACE_SECONDS: 20 s unless set; checked at start-up with the other settings", () => {
  expect(shutdownGraceSeconds({})).toBe(20);
  expect(shutdownGraceSeconds({ SHUTDOWN_GRACE_SECONDS: "" })).toBe(20);
  expect(shutdownGraceSeconds({ SHUTDOWN_GRACE_SECONDS: "5" })).toBe(5);
  expect(shutdownGraceSeconds({ SHUTDOWN_GRACE_SECONDS: "0" })).toBe(0);
  expect(parseEnv({ SHUTDOWN_GRACE_SECONDS: "30" }).SHUTDOWN_GRACE_SECONDS).toBe(30);
  for (const [value, message] of [
    ["1.5", "must be a whole number of seconds, 0–600"],
    ["soon", "must be a whole number of seconds, 0–600"],
    ["601", "must be 0–600 seconds"],
    ["-1", "must be 0–600 seconds"],
  ]) {
    expect(() => parseEnv({ SHUTDOWN_GRACE_SECONDS: value }), value).toThrow(`SHUTDOWN_GRACE_SECONDS: ${message}`);
  }
});

describe("the user the app processes run as", () => {
  test("not root: the process's own (nothing changes)", () => {
    expect(runAsAccount({ env: { RUN_AS_USER: "praksis" }, uid: 1000, passwd })).toBeNull();
  });

  test("root: RUN_AS_USER; `root` keeps root; an unknown user stops start-up", () => {
    expect(runAsAccount({ env: { RUN_AS_USER: "praksis" }, uid: 0, passwd })).toEqual({
      name: "praksis",
      uid: 998,
      gid: 997,
    });
    expect(runAsAccount({ env: { RUN_AS_USER: "root" }, uid: 0, passwd })).toBeNull();
    expect(() => runAsAccount({ env: { RUN_AS_USER: "nosuchuser" }, uid: 0, passwd })).toThrow(ServiceError);
    expect(() => runAsAccount({ env: { RUN_AS_USER: "nosuchuser" }, uid: 0, passwd })).toThrow(
      /^RUN_AS_USER=nosuchuser: no such user/,
    );
  });

  test("root, RUN_AS_USER unset: nobody, for a DATA_DIR that root owns or that is not there yet", () => {
    const missing = path.join(os.tmpdir(), "praksis-service-missing", "data");
    expect(runAsAccount({ env: {}, dataDir: missing, uid: 0, passwd })).toEqual({
      name: "nobody",
      uid: 65534,
      gid: 65534,
    });
    const dir = tempDir();
    if (fs.statSync(dir).uid === 0)
      expect(runAsAccount({ env: {}, dataDir: dir, uid: 0, passwd })).toEqual({
        name: "nobody",
        uid: 65534,
        gid: 65534,
      });
  });

  test.skipIf(!asRoot)(
    "root, RUN_AS_USER unset: the owner of DATA_DIR when that is not root (needs root to chown; skipped otherwise)",
    () => {
      const dir = tempDir();
      fs.chownSync(dir, 998, 997);
      expect(runAsAccount({ env: {}, dataDir: dir, uid: 0, passwd })).toEqual({ name: "praksis", uid: 998, gid: 997 });
    },
  );
});

describe.skipIf(!asRoot)("DATA_DIR for the app processes' user (needs root; skipped otherwise)", () => {
  const nobody = { name: "nobody", uid: 65534, gid: 65534 };

  test("root's app files become the user's; the database server's folder, another user's file and a link's target stay as they are", () => {
    const dataDir = tempDir();
    const outside = path.join(tempDir(), "elsewhere");
    fs.writeFileSync(outside, "root's own file");
    fs.writeFileSync(path.join(dataDir, "secret"), "s".repeat(43), { mode: 0o600 });
    fs.writeFileSync(path.join(dataDir, "postgres-credentials.json"), "{}", { mode: 0o600 });
    fs.mkdirSync(path.join(dataDir, "outbox"));
    fs.writeFileSync(path.join(dataDir, "outbox", "1.json"), "{}");
    fs.mkdirSync(path.join(dataDir, "postgres"), { mode: 0o700 });
    fs.symlinkSync(outside, path.join(dataDir, "demo-mode"));
    fs.writeFileSync(path.join(dataDir, "outbox", "2.json"), "{}");
    fs.chownSync(path.join(dataDir, "outbox", "2.json"), 998, 997);

    prepareForAccount({
      account: nobody,
      dataDir,
      writableDirs: [path.join(dataDir, "outbox")],
      readable: [path.join(dataDir, "secret")],
    });

    const owner = (file: string) => fs.lstatSync(path.join(dataDir, file)).uid;
    expect([
      owner("."),
      owner("secret"),
      owner("postgres-credentials.json"),
      owner("outbox"),
      owner("outbox/1.json"),
    ]).toEqual([65534, 65534, 65534, 65534, 65534]);
    expect(owner("postgres")).toBe(0);
    expect(owner("outbox/2.json")).toBe(998);
    expect(fs.statSync(outside).uid).toBe(0);
    // The secret keeps its mode: readable by its owner only.
    expect(fs.statSync(path.join(dataDir, "secret")).mode & 0o777).toBe(0o600);
  });

  test("a DATA_DIR the user cannot reach, or an app it cannot read, stops start-up with a line that says what to do", () => {
    const closed = tempDir();
    fs.chmodSync(closed, 0o700);
    expect(() => prepareForAccount({ account: nobody, dataDir: path.join(closed, "data") })).toThrow(
      new ServiceError(
        `running as root, the app processes run as nobody (RUN_AS_USER), who cannot write ${path.join(closed, "data")}: chown nobody ${path.join(closed, "data")}, or set RUN_AS_USER to its owner`,
      ),
    );
    const dataDir = tempDir();
    const app = path.join(closed, "server.mjs");
    fs.writeFileSync(app, "");
    expect(() => prepareForAccount({ account: nobody, dataDir, readable: [app] })).toThrow(
      /who cannot read .*server\.mjs: put the app where nobody can read it/,
    );
  });

  test("a shared folder (sticky, like /tmp) is not taken over", () => {
    const shared = tempDir();
    fs.chmodSync(shared, 0o1777);
    prepareForAccount({ account: nobody, dataDir: shared });
    expect(fs.statSync(shared).uid).toBe(0);
  });
});
