import express from "express";
import { expect, test } from "vitest";
import { describeTrustProxy, parseTrustProxy, TrustProxyError } from "./trust-proxy.mjs";

test.each([
  [undefined, false],
  ["", false],
  ["false", false],
  ["0", false],
  ["true", 1],
  ["1", 1],
  ["2", 2],
  ["127.0.0.1", ["127.0.0.1"]],
  ["loopback, 10.0.0.0/8, ::1", ["loopback", "10.0.0.0/8", "::1"]],
])("TRUST_PROXY=%j means %j", (value, setting) => {
  expect(parseTrustProxy(value)).toEqual(setting);
});

test.each(["yes", "proxy.example.org", "10.0.0.0/33", "10.0.0.1/8/1", "11", ","])(
  "TRUST_PROXY=%j is refused",
  (value) => {
    expect(() => parseTrustProxy(value)).toThrow(TrustProxyError);
  },
);

test("the start-up line says what the setting means", () => {
  expect(describeTrustProxy(false)).toBe("no proxy in front");
  expect(describeTrustProxy(1)).toBe("1 proxy in front (hop count)");
  expect(describeTrustProxy(["127.0.0.1"])).toBe("proxies at 127.0.0.1");
});

/** The client address, protocol and host an Express app with the setting finds for a request from 127.0.0.1. */
async function seenBy(setting: ReturnType<typeof parseTrustProxy>, headers: Record<string, string>) {
  const app = express();
  app.set("trust proxy", setting);
  app.get("/", (req, res) => res.json({ ip: req.ip, protocol: req.protocol, host: req.host }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as { port: number };
    return (await (await fetch(`http://127.0.0.1:${port}/`, { headers })).json()) as {
      ip: string;
      protocol: string;
      host: string;
    };
  } finally {
    server.close();
  }
}

const forwarded = {
  "X-Forwarded-For": "198.51.100.9, 203.0.113.7",
  "X-Forwarded-Proto": "https",
  "X-Forwarded-Host": "praksis.example.no",
};

test("one proxy in front: the address it appended, not the one the client wrote before it; its protocol and host", async () => {
  // The client sent "X-Forwarded-For: 198.51.100.9" itself; the proxy (127.0.0.1) appended the real address.
  for (const setting of ["1", "true", "127.0.0.1", "loopback"]) {
    expect(await seenBy(parseTrustProxy(setting), forwarded)).toEqual({
      ip: "203.0.113.7",
      protocol: "https",
      host: "praksis.example.no",
    });
  }
});

test("no proxy, or a request that did not come from the named proxy: nothing forwarded is believed", async () => {
  for (const setting of ["false", "10.0.0.1"]) {
    const seen = await seenBy(parseTrustProxy(setting), forwarded);
    expect(seen.ip).toBe("127.0.0.1");
    expect(seen.protocol).toBe("http");
    expect(seen.host).toMatch(/^127\.0\.0\.1:\d+$/);
  }
});
