import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";

export type ErrorSummaryItem = {
  /** The id of the field (for a group: its first input) the link moves to. */
  fieldId: string;
  message: string;
};

export type ErrorSummaryProps = {
  errors: readonly ErrorSummaryItem[];
  /** Defaults to "Det er et problem". */
  title?: string;
};

/** Whether focus is in a field a person types in or chooses with (not a button). */
function inField(element: Element | null): boolean {
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !["submit", "button", "reset", "image"].includes(element.type);
}

/**
 * The list of a form's errors at the top of the page, each linked to its field.
 * Server-rendered; with JavaScript it takes focus when it appears or its errors change, unless
 * the person is in a field (then the messages change under them as they type).
 * Renders nothing when there are no errors.
 */
export function ErrorSummary({ errors, title }: ErrorSummaryProps) {
  const { t } = useTranslation("ui");
  const ref = useRef<HTMLDivElement>(null);
  // A form on the page was sent since the summary last took focus.
  const submitted = useRef(false);
  const titleId = useId();
  const signature = errors.map((e) => `${e.fieldId}\u0000${e.message}`).join("\u0001");

  useEffect(() => {
    // A person's post; the form library's own re-check as they type also submits, with a hidden
    // button named for its intent, and is not one.
    const sent = (event: Event) => {
      const submitter = (event as SubmitEvent).submitter;
      if (!/^__intent__$/i.test(submitter?.getAttribute("name") ?? "")) submitted.current = true;
    };
    document.addEventListener("submit", sent, true);
    return () => document.removeEventListener("submit", sent, true);
  }, []);

  useEffect(() => {
    // After a post (a button, or Enter in a field) the summary takes focus; not while the person is
    // in a field otherwise: the form checks again as they type or choose, and taking the focus then
    // would send the rest of what they type nowhere.
    if (!signature || (!submitted.current && inField(document.activeElement))) return;
    submitted.current = false;
    ref.current?.focus();
  }, [signature]);

  if (errors.length === 0) return null;
  return (
    <div ref={ref} className="ui-error-summary" role="alert" tabIndex={-1} aria-labelledby={titleId}>
      <h2 className="ui-error-summary__title" id={titleId}>
        {title ?? t("errorSummaryTitle")}
      </h2>
      <ul className="ui-error-summary__list">
        {errors.map((error) => (
          <li key={`${error.fieldId}:${error.message}`}>
            <a href={`#${error.fieldId}`}>{error.message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}
