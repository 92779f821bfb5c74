// The development server that `npm run dev` (scripts/dev.mjs, which runs the database) starts: the
// production server's HTTP app (scripts/http-app.mjs: the request's record, the client address,
// TRUST_PROXY) with Vite in middleware mode in it. Vite serves the modules and reloads them on an
// edit (its WebSocket on the same port); every request is handled with the server build as it is
// now. A process of its own: Vite ends the process it runs in on SIGTERM.
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { createLog, routeConsoleTo } from "./log.mjs";
import { parseTrustProxy } from "./trust-proxy.mjs";

process.env.NODE_ENV ??= "development";
const root = path.resolve(import.meta.dirname, "..");
const log = createLog();
routeConsoleTo(log);
const serverLog = log.child({ component: "server" });
const { values: options } = parseArgs({
  options: { port: { type: "string" }, host: { type: "string" } },
  strict: false,
});
const port = Number(options.port ?? process.env.PORT ?? 3000);
const host = options.host ?? process.env.HOST ?? "127.0.0.1";
let trustProxy;
try {
  trustProxy = parseTrustProxy(process.env.TRUST_PROXY);
} catch (error) {
  serverLog.error(`TRUST_PROXY: ${error.message}`);
  process.exit(1);
}

const server = http.createServer();
const vite = await import("vite");
const viteServer = await vite.createServer({ root, server: { middlewareMode: true, ws: { server } } });
const build = async () => {
  try {
    return await viteServer.ssrLoadModule("virtual:react-router/server-build");
  } catch (error) {
    if (error instanceof Error) viteServer.ssrFixStacktrace(error);
    throw error;
  }
};
const { createHttpApp } = await import("./http-app.mjs");
server.on("request", createHttpApp({ build, mode: "development", devMiddleware: viteServer.middlewares, trustProxy }));
server.once("error", (error) => {
  serverLog.error(
    error.code === "EADDRINUSE" ? `port ${port} on ${host} is in use: --port or PORT chooses another` : error.message,
  );
  process.exit(1);
});
server.listen(port, host, () =>
  serverLog.info(`Praksis (development) on http://${host.includes(":") ? `[${host}]` : host}:${port}`),
);
