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
 * Server-rendered; with JavaScript it takes focus when it appears or its errors change.
 * Renders nothing when there are no errors.
 */
export function ErrorSummary({ errors, title }: ErrorSummaryProps) {
  const { t } = useTranslation("ui");
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const signature = errors.map((e) => `${e.fieldId}\u0000${e.message}`).join("\u0001");

  useEffect(() => {
    if (signature) ref.current?.focus();
  }, [signature]);

  if (errors.length === 0) return null;
  return (
    <div
      ref={ref}
      className="ui-error-summary"
      role="alert"
      tabIndex={-1}
      aria-labelledby={titleId}
    >
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
