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

/**
 * The list of a form's errors at the top of the page, each linked to its field.
 * Server-rendered; with JavaScript it takes focus when it appears, and when its errors change
 * unless the person is in a field (then the messages change under them as they type).
 * Renders nothing when there are no errors.
 */
export function ErrorSummary({ errors, title }: ErrorSummaryProps) {
  const { t } = useTranslation("ui");
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const signature = errors.map((e) => `${e.fieldId}\u0000${e.message}`).join("\u0001");

  // The errors last shown: empty until the summary first appears.
  const shown = useRef("");

  useEffect(() => {
    const appears = !shown.current;
    shown.current = signature;
    // It takes focus when it appears (after a post), and when its errors change while the person is
    // not in a field; in a field the form checks again as they type or choose, and taking the focus
    // then would send the rest of what they type nowhere.
    if (signature && (appears || !document.activeElement?.matches("input,textarea,select"))) ref.current?.focus();
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
