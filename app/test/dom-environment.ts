import { builtinEnvironments, type Environment } from "vitest/runtime";

/**
 * happy-dom for the page (document, events, the browser's FormData built from a <form>), with
 * Node's own Request, Response, Headers, fetch and AbortController kept. The route's loader and
 * action run in the same process as the page, and they must see what the server sees: happy-dom's
 * browser classes drop the headers a browser may not set or read (Cookie and Origin on a request,
 * Set-Cookie on a response), so the session, the same-origin check and the flash message would be
 * lost. React Router posts a form as url-encoded text, which Node's Request reads.
 * vitest.config.ts gives it to every *.view.test.tsx (a file's `@vitest-environment` comment can name a package only).
 */
const kept = ["Request", "Response", "Headers", "fetch", "AbortController", "AbortSignal"] as const;

const environment: Environment = {
  name: "happy-dom-with-node-fetch",
  viteEnvironment: "client",
  async setup(global, options) {
    const node = Object.fromEntries(kept.map((name) => [name, global[name]]));
    const dom = await builtinEnvironments["happy-dom"].setup(global, options);
    Object.assign(global, node);
    return dom;
  },
};

export default environment;
