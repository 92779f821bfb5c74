import { useEffect, useState, type ChangeEvent, type ComponentProps, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FieldError } from "./FieldError";
import { Hint, Label } from "./Label";
import { cx, describedBy, useHydrated } from "./internal";

/**
 * Characters as the browser's `maxlength` counts them (UTF-16 units: an emoji is two), so the
 * counter reaches 0 where typing stops. The server counts an emoji as one, so whatever the
 * browser lets through is within the server's limit too.
 */
function characters(text: string): number {
  return text.length;
}

/** How long typing must pause before the remaining count is announced to screen readers. */
const ANNOUNCE_DELAY_MS = 1000;

export type TextAreaProps = Omit<
  ComponentProps<"textarea">,
  "style" | "id" | "name" | "children" | "aria-invalid" | "value"
> & {
  label: ReactNode;
  name: string;
  id?: string;
  hint?: ReactNode;
  error?: string | null;
  /**
   * The most characters allowed. Sets the native `maxLength` (the browser ignores longer
   * input, as the specification asks, with JavaScript or without) and shows a character counter
   * (with JavaScript, a live one that screen readers hear when typing pauses).
   */
  maxLength?: number;
  defaultValue?: string;
  isPageHeading?: boolean;
  optional?: boolean;
};

export function TextArea({
  label,
  name,
  id = name,
  hint,
  error,
  maxLength,
  defaultValue,
  rows = 5,
  isPageHeading,
  optional,
  className,
  onChange,
  "aria-describedby": extraDescribedBy,
  ...rest
}: TextAreaProps) {
  const { t } = useTranslation("ui");
  const hydrated = useHydrated();
  const [length, setLength] = useState(characters(defaultValue ?? ""));
  const [typed, setTyped] = useState(false);
  const [announcedLength, setAnnouncedLength] = useState<number | null>(null);

  useEffect(() => {
    // The browser may have restored a different value (back button, form restore).
    const element = document.getElementById(id);
    if (element instanceof HTMLTextAreaElement) setLength(characters(element.value));
  }, [id]);

  useEffect(() => {
    // Nothing to announce until the user types; on page load the limit text says it all.
    if (maxLength === undefined || !typed) return;
    const timer = setTimeout(() => setAnnouncedLength(length), ANNOUNCE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [length, maxLength, typed]);

  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const infoId = maxLength !== undefined ? `${id}-info` : undefined;

  function handleChange(event: ChangeEvent<HTMLTextAreaElement>) {
    setLength(characters(event.currentTarget.value));
    setTyped(true);
    onChange?.(event);
  }

  const counted = maxLength !== undefined;
  const remaining = counted ? maxLength - length : 0;
  const countText = (n: number) =>
    n >= 0 ? t("characterCount.remaining", { count: n }) : t("characterCount.over", { count: -n });

  return (
    <div className={cx("ui-form-group", counted && "ui-character-count", error && "ui-form-group--error", className)}>
      <Label htmlFor={id} isPageHeading={isPageHeading} optional={optional}>
        {label}
      </Label>
      {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
      {error ? <FieldError id={`${id}-error`} message={error} /> : null}
      <textarea
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        defaultValue={defaultValue}
        className={cx("ui-textarea", (error || remaining < 0) && "ui-textarea--error")}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, errorId, infoId, extraDescribedBy)}
        onChange={handleChange}
        {...rest}
      />
      {counted ? (
        <>
          {/* Server-rendered limit; with JavaScript it stays for screen readers only. */}
          <div id={infoId} className={cx("ui-hint", "ui-character-count__message", hydrated && "ui-visually-hidden")}>
            {t("characterCount.limit", { count: maxLength })}
          </div>
          {hydrated ? (
            <>
              <div
                className={cx("ui-character-count__status", remaining < 0 && "ui-character-count__status--error")}
                aria-hidden="true"
              >
                {countText(remaining)}
              </div>
              <div className="ui-visually-hidden" aria-live="polite">
                {announcedLength === null ? "" : countText(maxLength - announcedLength)}
              </div>
            </>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
