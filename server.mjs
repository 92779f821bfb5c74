// The production server: static assets, the remote address for rate limits, and the app.
import path from "node:path";
import { pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "@react-router/express";

const began = Date.now();
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);

// Configuration is checked and the database migrated (and seeded for the demo) before listening.
await build.entry.module.startup();

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(
  "/assets",
  express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }),
);
// The service worker (ADR 0011) is checked for a new version on every visit: never kept by a cache.
app.get("/sw.js", (req, res) => {
  res.set({ "Cache-Control": "no-cache", "Service-Worker-Allowed": "/", "X-Content-Type-Options": "nosniff" });
  res.sendFile(path.join(buildDir, "client/sw.js"), { maxAge: 0, lastModified: true }, (error) => {
    if (error && !res.headersSent) res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not Found");
  });
});
app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
app.use((req, res, next) => {
  const refusal = build.entry.module.crossSiteRefusal({
    method: req.method,
    origin: req.headers.origin,
    referer: req.headers.referer,
    host: req.headers.host,
  });
  if (refusal) {
    res.status(403).set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }).send(refusal);
    return;
  }
  // Overwritten on every request, so a client cannot choose its own address.
  req.headers["x-praksis-remote-address"] = req.socket.remoteAddress ?? "unknown";
  next();
});
app.all("/{*splat}", createRequestHandler({ build, mode: "production" }));

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
const server = app.listen(port, host, () => {
  console.info(`[server] Praksis listening on http://localhost:${port} (ready in ${Date.now() - began} ms)`);
});

// Longer than the idle timeout of common proxies and load balancers (60 s), so the server never
// closes a kept-alive connection just as the proxy (or a client) sends the next request on it:
// that race shows as a reset connection (a 502 behind a proxy).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

function shutdown() {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 5_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
