import { createContext, useContext, useState } from "react";

/** The id of the request being rendered (server only): the error page shows it so a user can quote it. */
export const RequestIdContext = createContext<string>("");

const ELEMENT_ID = "request-id";

/**
 * The request id of a page the server rendered. In the browser the id is read back from the page
 * the server sent, so hydration finds the same text; a page rendered in the browser alone (an error
 * after a navigation with JavaScript) has none, and shows none.
 */
export function useRequestId(): string {
  const fromServer = useContext(RequestIdContext);
  const [id] = useState(() => fromServer || (typeof document === "undefined" ? "" : (document.getElementById(ELEMENT_ID)?.textContent ?? "")));
  return id;
}

export function RequestIdCode({ id }: { id: string }) {
  return <code id={ELEMENT_ID}>{id}</code>;
}
