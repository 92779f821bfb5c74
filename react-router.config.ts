import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Every flag of React Router v8 said, so the build does not warn about them. Middleware is on (the
  // session and i18n middleware); the others stay at v7's behaviour until the upgrade to v8 is made on
  // purpose and tested (route module splitting would change the chunks the page-weight check measures).
  future: {
    v8_middleware: true,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
