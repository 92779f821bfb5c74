/**
 * The JSON endpoints the pages' scripts call with fetch (the form page's and the warning page's
 * autosave). A script cannot act on a redirect to the log-in page or on an HTML error page: these
 * endpoints answer every refusal as JSON, `{ error: "<name>" }`, with the status the page's own
 * refusal stands for (ADR 0011, "Logged out while typing"):
 *
 * - 401 `loggedOut`: no session (the page would send the person to log in);
 * - 403 `privacyNotAccepted`: the privacy policy is not accepted (the page would show the gate);
 * - 403 `forbidden`: acting in another role (the page would send them to the role chooser);
 * - 404 `notFound`: a class, student or form the person may not see — the same 404 as the page, so
 *   an endpoint does not tell what exists any more than the page does;
 * - 400 `malformed`, 405 `methodNotAllowed`, 413 `tooLarge`, 503 `unavailable`.
 */

export type ApiErrorName =
  | "loggedOut"
  | "privacyNotAccepted"
  | "forbidden"
  | "notFound"
  | "malformed"
  | "methodNotAllowed"
  | "tooLarge"
  | "unavailable"
  | "failed";

const NAME_OF_STATUS: Record<number, ApiErrorName> = {
  400: "malformed",
  401: "loggedOut",
  403: "forbidden",
  404: "notFound",
  405: "methodNotAllowed",
  413: "tooLarge",
  503: "unavailable",
};

/** A refusal in JSON; never kept by a cache. */
export function apiError(status: number, error: ApiErrorName, headers: Record<string, string> = {}): Response {
  return Response.json({ error }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

function isJson(response: Response): boolean {
  return (response.headers.get("Content-Type") ?? "").startsWith("application/json");
}

/**
 * Runs an endpoint's handler and answers in JSON whatever it throws on the way as a Response: the
 * shared guards and parsers (notFound(), readFormData's 400 and 413, the database's 503) throw text
 * answers made for pages. A thrown redirect is a bug here (the endpoints use the API guards), so it
 * is answered as a failure rather than followed by the script to an HTML page.
 */
export async function jsonApi(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    if (isJson(thrown)) return thrown;
    const allow = thrown.headers.get("Allow");
    return apiError(
      thrown.status >= 300 && thrown.status < 400 ? 500 : thrown.status,
      NAME_OF_STATUS[thrown.status] ?? "failed",
      allow ? { Allow: allow } : {},
    );
  }
}

/** The loader of a POST-only endpoint. */
export function postOnly(): Response {
  return apiError(405, "methodNotAllowed", { Allow: "POST" });
}
