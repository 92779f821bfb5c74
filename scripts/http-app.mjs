// The HTTP app in front of React Router's request handler, shared by the production server
// (server.mjs, one per app process) and the development server (scripts/dev.mjs): each request's
// record and log line, the security headers of answers the app does not make itself, static files,
// the cross-site refusal, and the proxies in front (TRUST_PROXY, scripts/trust-proxy.mjs).
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import { metricsEndpoint, observeRequest } from "./metrics.mjs";
import { parseTrustProxy } from "./trust-proxy.mjs";

/**
 * The Express app for a build. `build` is the production server build, or for the development
 * server a function that loads the build as it is now (Vite loads it again after an edit); `entry`
 * its entry module (app/entry.server.tsx: the build's `entry.module` when not given); `buildDir` the
 * folder of its client files (none for the development server: Vite serves them, through
 * `devMiddleware`, before anything here sees the request).
 */
export function createHttpApp({
  build,
  entry,
  buildDir,
  devMiddleware,
  isDraining,
  mode = "production",
  trustProxy = parseTrustProxy(process.env.TRUST_PROXY),
}) {
  // The entry module each request is handled with: the production build's, once; the development
  // server's as the build is now, so the request's record and the app's routes share the modules
  // of one load (after an edit Vite makes new ones).
  const entryNow = entry
    ? () => entry
    : typeof build === "function"
      ? async () => (await build()).entry.module
      : () => build.entry.module;
  // The security headers of every answer that is not the app's own (static files, the service
  // worker, refusals, the server's error answers): the app's (request.server.ts), without a nonce.
  const headersOfEntry = new WeakMap();
  const securityHeadersOf = (module) => {
    let headers = headersOfEntry.get(module);
    if (!headers) headersOfEntry.set(module, (headers = Object.entries(module.securityHeaders())));
    return headers;
  };
  const app = express();
  app.disable("x-powered-by");
  // The proxies in front (TRUST_PROXY): from them, and only from them, the protocol, host and client
  // address they forward (Express's req.protocol, req.host, req.ip), so the app's request URL is the
  // browser's (https behind a TLS-ending proxy) and the client address is not one a client wrote.
  app.set("trust proxy", trustProxy);
  const trusted = app.get("trust proxy fn");
  // Development: Vite's own files (modules, hot reload) first, without a record or a log line.
  if (devMiddleware) app.use(devMiddleware);
  app.use((req, res, next) => {
    const found = entryNow();
    if (found instanceof Promise) found.then((entry) => begin(entry, req, res, next), next);
    else begin(found, req, res, next);
  });
  function begin(entry, req, res, next) {
    res.locals.entry = entry;
    const securityHeaders = securityHeadersOf(entry);
    // The request's record: its id (X-Request-Id), what the app adds (route, user, an error),
    // and one log line when the answer has gone (or the client went away).
    // The X-Request-Id of a trusted proxy only; the client address as the proxies in front report it.
    const fromProxy = trustProxy !== false && trusted(req.socket.remoteAddress ?? "", 0);
    const record = entry.serverRequestRecord(req.method, fromProxy ? req.headers["x-request-id"] : undefined);
    record.clientAddress = req.ip ?? req.socket.remoteAddress ?? "unknown";
    // @react-router/express takes the port of X-Forwarded-Host into the request URL whenever "trust
    // proxy" is on, whoever sent it: from a peer that is not one of the proxies, it goes.
    if (trustProxy !== false && !fromProxy) delete req.headers["x-forwarded-host"];
    res.locals.record = record;
    const writeHead = res.writeHead;
    res.writeHead = function (...args) {
      // Filled in without overwriting: the app's answers have them already (with the page's nonce).
      if (!res.hasHeader("X-Request-Id")) res.setHeader("X-Request-Id", record.id);
      for (const [name, value] of securityHeaders) if (!res.hasHeader(name)) res.setHeader(name, value);
      return writeHead.apply(this, args);
    };
    res.once("close", () => entry.logRequest(record, res.statusCode, res.writableFinished ? {} : { aborted: true }));
    res.once("close", () => observeRequest(record, res.statusCode, !res.writableFinished));
    // A path whose percent-encoding does not decode (`/%E0%A4%A`) is the client's mistake: the app
    // answers with its own 400 page (request.server.ts), handed a path that decodes.
    const query = req.url.indexOf("?");
    const pathname = query === -1 ? req.url : req.url.slice(0, query);
    try {
      decodeURIComponent(pathname);
    } catch {
      record.malformedUrl = true;
      req.url = pathname.replaceAll("%", "%25") + (query === -1 ? "" : req.url.slice(query));
      req.originalUrl = req.url;
    }
    next();
  }
  // Draining (server.mjs, after SIGTERM): /healthz says so at once, and every answer closes its connection.
  if (isDraining) {
    app.use((req, res, next) => {
      if (!isDraining()) return next();
      res.set("Connection", "close");
      if (req.path === "/healthz" && (req.method === "GET" || req.method === "HEAD"))
        res.status(503).set("Cache-Control", "no-store").json({ status: "draining" });
      else next();
    });
  }
  app.use(compression());
  if (buildDir) serveStaticFiles(app, buildDir);
  app.use((req, res, next) => {
    // Not a static file: the app's route pattern, once it has matched one.
    res.locals.record.route = undefined;
    const refusal = res.locals.entry.crossSiteRefusal({
      method: req.method,
      origin: req.headers.origin,
      referer: req.headers.referer,
      host: req.host,
    });
    if (refusal) {
      sendPlainPage(res, 403, { nb: "Forespørselen ble avvist", en: "The request was refused", text: refusal });
      return;
    }
    next();
  });
  // GET /metrics (scripts/metrics.mjs), when METRICS or METRICS_TOKEN lets the request see it.
  app.get("/metrics", metricsEndpoint({ appStats: () => (entry ?? build.entry?.module)?.appMetrics?.() }));
  app.all(
    "/{*splat}",
    createRequestHandler({
      build,
      mode,
      getLoadContext: (req, res) => res.locals.entry.requestContext(res.locals.record),
    }),
  );
  // What went wrong before the app answered (the app makes its own error pages): a client's
  // mistake gets its status, anything else a 500 logged with its stack; a plain page in both
  // languages, with the security headers (above).
  app.use((error, req, res, _next) => {
    const status = Number(error?.status ?? error?.statusCode);
    const clientMistake = status >= 400 && status < 500;
    if (!clientMistake && res.locals.record) res.locals.record.error ??= error;
    // Development: a build that does not load (an edit half made) has no record to log it with.
    else if (!clientMistake) console.error(error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const [nb, en] = clientMistake ? ["Ugyldig forespørsel", "Bad request"] : ["Noe gikk galt", "Something went wrong"];
    // Development: what went wrong, on the page.
    const detail = mode === "development" && !clientMistake ? String(error?.stack ?? error) : undefined;
    sendPlainPage(res, clientMistake ? status : 500, { nb, en, detail });
  });

  /**
   * A page for what the server answers before the app can (the app makes its own pages): in both
   * languages, with the request's reference and a way back; the security headers are added above.
   */
  function sendPlainPage(res, status, { nb, en, text, detail }) {
    const escape = (value) =>
      String(value).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
    res
      .status(status)
      .set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" })
      .send(
        `<!doctype html><html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${nb} – Praksis</title></head>` +
          `<body><main><h1>${nb}</h1><p lang="en">${en}</p>${text ? `<p>${escape(text)}</p>` : ""}${detail ? `<pre>${escape(detail)}</pre>` : ""}` +
          (res.locals.record ? `<p>Referanse / reference: <code>${escape(res.locals.record.id)}</code></p>` : "") +
          `<p><a href="/">Praksis</a></p></main></body></html>`,
      );
  }

  return app;
}

/** The build's client files: hashed assets kept a year, the service worker never, the rest an hour. */
function serveStaticFiles(app, buildDir) {
  const staticFile = (req, res, next) => {
    res.locals.record.route = "static";
    next();
  };
  app.use(
    "/assets",
    staticFile,
    express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }),
  );
  // The service worker (ADR 0011) is checked for a new version on every visit: never kept by a cache.
  app.get("/sw.js", staticFile, (req, res) => {
    res.set({ "Cache-Control": "no-cache", "Service-Worker-Allowed": "/" });
    res.sendFile(path.join(buildDir, "client/sw.js"), { maxAge: 0, lastModified: true }, (error) => {
      if (error && !res.headersSent)
        res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not Found");
    });
  });
  app.use(staticFile, express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
}
