import { createContext, useContext, useState } from "react";

/** The id of the request being rendered (server only): the error page shows it so a user can quote it. */
export const RequestIdContext = createContext<string>("");

const ELEMENT_ID = "request-id";

let lastFailedRequestId = "";

/**
 * In the browser: remembers the X-Request-Id of the last answer that was a server error, so an
 * error page rendered in the browser (a navigation or a form sent with JavaScript, whose data
 * request failed) can show it too. Called once by entry.client.tsx.
 */
export function watchFailedRequests(): void {
  const original = window.fetch.bind(window);
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await original(...args);
    if (response.status >= 500) lastFailedRequestId = response.headers.get("X-Request-Id") ?? "";
    return response;
  };
}

/**
 * The request id of a server error. A page the server rendered has it from the server, and in the
 * browser it is read back from that page, so hydration finds the same text; an error page rendered
 * in the browser takes the id of the last failed request (watchFailedRequests).
 */
export function useRequestId(): string {
  const fromServer = useContext(RequestIdContext);
  const [id] = useState(
    () =>
      fromServer ||
      (typeof document === "undefined" ? "" : document.getElementById(ELEMENT_ID)?.textContent || lastFailedRequestId),
  );
  return id;
}

export function RequestIdCode({ id }: { id: string }) {
  return <code id={ELEMENT_ID}>{id}</code>;
}
