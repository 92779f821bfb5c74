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
    // A browser's FormData refuses a submitter that is not an element (React Router tries `0` to
    // learn whether the submitter is supported); happy-dom's ignores it, so React Router would add
    // the pressed button's name and value a second time (intent=save&intent=save).
    const DomFormData = global.FormData as typeof FormData;
    global.FormData = class extends DomFormData {
      constructor(form?: HTMLFormElement, submitter?: HTMLElement | null) {
        if (submitter !== undefined && submitter !== null && typeof submitter !== "object") {
          throw new TypeError("Failed to construct 'FormData': parameter 2 is not of type 'HTMLElement'.");
        }
        super(form, submitter);
      }
    };
    return dom;
  },
};

export default environment;
