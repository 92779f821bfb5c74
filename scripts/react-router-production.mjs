// A module resolution hook for the production server (server.mjs registers it): React Router's
// package gives Node its development build under every condition (its `exports` has no production
// entry), which checks and warns on every render: about a tenth of a page's CPU time (docs/performance.md).
// Its production build has the same modules; this resolves `react-router` to it, for the app's
// build and for @react-router/node and /express alike (one copy).
const DEVELOPMENT = "/node_modules/react-router/dist/development/";
const PRODUCTION = "/node_modules/react-router/dist/production/";

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.includes(DEVELOPMENT)) return { ...resolved, url: resolved.url.replace(DEVELOPMENT, PRODUCTION) };
  return resolved;
}
