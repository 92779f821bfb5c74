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

/**
 * The server build bundles every route into one file, so a form's schema that a route's action imports
 * and its component loads lazily (ADR 0012) is rightly not split there: rolldown's
 * INEFFECTIVE_DYNAMIC_IMPORT says so for each schema. In the browser build the action, and with it the
 * static import, is gone, and the warning would mean a lost split: that build still reports it.
 */
function quietServerSchemas(): Plugin {
  return {
    name: "praksis-quiet-server-schemas",
    configEnvironment(name) {
      if (name !== "ssr") return null;
      return {
        build: {
          rolldownOptions: {
            onwarn(warning, warn) {
              if (warning.code === "INEFFECTIVE_DYNAMIC_IMPORT" && /\.schema\.ts\b/.test(warning.message)) return;
              warn(warning);
            },
          },
        },
      };
    },
  };
}

export default defineConfig({
  plugins: [clientI18n(), quietServerSchemas(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: {
    cssMinify: "lightningcss",
    // Lightning CSS rewrites for these browsers: the grade-X floor (ADR 0003), so minifying never
    // introduces what they lack (it would merge top/right/bottom/left into `inset` otherwise).
    cssTarget: ["chrome87", "edge87", "firefox78", "safari13"],
    // Rolldown reports when plugins took most of a build's time; on a busy 2-core machine that is the
    // machine, not the code, and it would make the build's output (checked for warnings) depend on load.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { port: 3000 },
});
