import { data, type MiddlewareFunction } from "react-router";
import { watchDatabase } from "./db/client.server";
import type { PostedFields, UnavailableWithPost } from "./kept-post";
import { MAX_FIELD_REPEATS, MAX_FORM_BYTES, MAX_FORM_FIELDS } from "./request.server";

/**
 * Whether a request is a post whose fields could be given back: url-encoded with its length
 * declared (what a browser's plain form sends) and within the body limit. Multipart (files), JSON,
 * anything else, and a body streamed without a length never are: its copy would hold the original's
 * refusal (413) until the copy was read too.
 */
export function keepablePost(request: Request): boolean {
  if (request.method.toUpperCase() !== "POST" || !request.body) return false;
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return false;
  const length = request.headers.get("content-length");
  return length !== null && /^\d+$/.test(length) && Number(length) <= MAX_FORM_BYTES;
}

/**
 * The fields of a url-encoded body, read up to MAX_FORM_BYTES; null when it is bigger or has more
 * fields (or repeats of one name) than an action would read.
 */
export async function readPostedFields(body: ReadableStream<Uint8Array> | null): Promise<PostedFields | null> {
  if (!body) return null;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FORM_BYTES) {
      // Not awaited (a teed branch's cancel settles with the other branch's).
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  const fields: PostedFields = [];
  const counts = new Map<string, number>();
  for (const [name, value] of new URLSearchParams(text)) {
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    if (fields.length >= MAX_FORM_FIELDS || count > MAX_FIELD_REPEATS) return null;
    // PostgreSQL text cannot hold NUL and no field means anything by it (readFormData drops it too).
    fields.push([name.replaceAll("\0", ""), value.replaceAll("\0", "")]);
  }
  return fields;
}

/**
 * A page post (JavaScript off: "Neste", "Lagre og avslutt") that ends in the database's 503 is not
 * lost: the 503 page carries the fields back in a plain form to send again (the root error boundary).
 *
 * React Router hands a middleware's `next()` the answer already rendered (an error thrown further
 * down, by the session middleware or an action, has been rendered by the error boundary), never the
 * error; so this middleware keeps a copy of the body, and when the answer is the database's 503
 * rendered as a page, throws a 503 of its own that carries the fields, which the root boundary
 * renders instead. Only for documents: JavaScript's data requests (`.data`, answered in React
 * Router's own encoding) keep their 503 as it is (the page keeps what was typed itself, ADR 0011).
 * The fields go into the page only (no-store; never a URL, never the log).
 */
export const keptPostMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (!keepablePost(request)) return next();
  const copy = request.clone();
  const { result: response, unavailable } = await watchDatabase(next);
  const page = (response.headers.get("content-type") ?? "").startsWith("text/html");
  if (!(unavailable && response.status === 503 && page)) {
    // Not awaited: a branch of a teed body settles its cancel only once the other branch is done too.
    copy.body?.cancel().catch(() => {});
    return response;
  }
  const fields = await readPostedFields(copy.body);
  if (!fields || fields.length === 0) return response;
  const kept: UnavailableWithPost = { kind: "unavailable", resend: { fields } };
  throw data(kept, { status: 503, headers: { "Retry-After": "30", "Cache-Control": "no-store" } });
};
