import { reactRouter } from "@react-router/dev/vite";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";

/**
 * In the browser, `react-i18next` is app/i18n-client/react-i18next.ts: the same hooks over a small
 * `t`, without i18next (ADR 0012). The server build keeps the real libraries.
 */
function clientI18n(): Plugin {
  const shim = path.resolve(import.meta.dirname, "app/i18n-client/react-i18next.ts");
  return {
    name: "praksis-client-i18n",
    enforce: "pre",
    resolveId(source) {
      if (source === "react-i18next" && this.environment?.name === "client") return shim;
      return null;
    },
  };
}

export default defineConfig({
  plugins: [clientI18n(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: {
    cssMinify: "lightningcss",
    // Lightning CSS rewrites for these browsers: the grade-X floor (ADR 0003), so minifying never
    // introduces what they lack (it would merge top/right/bottom/left into `inset` otherwise).
    cssTarget: ["chrome87", "edge87", "firefox78", "safari13"],
  },
  server: { port: 3000 },
});
