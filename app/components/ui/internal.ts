import { useSyncExternalStore } from "react";

/** Joins class names, skipping empty ones. */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(" ");
}

/** Builds an aria-describedby value, or undefined when nothing describes the control. */
export function describedBy(...ids: Array<string | false | null | undefined>): string | undefined {
  const list = ids.filter(Boolean);
  return list.length > 0 ? list.join(" ") : undefined;
}

const subscribeNothing = () => () => {};

/**
 * False on the server and during hydration, true once React runs in the browser.
 * Enhancements (live counters, dismiss buttons, modal dialogs) render only when this is true,
 * so the server HTML and the first client render match, and nothing offers a control that
 * needs JavaScript when JavaScript is off.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export function headingTag(level: HeadingLevel): "h1" | "h2" | "h3" | "h4" | "h5" | "h6" {
  return `h${level}`;
}
