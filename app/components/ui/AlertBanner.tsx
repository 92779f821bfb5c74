import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { cx, headingTag, type HeadingLevel } from "./internal";

export type AlertVariant = "info" | "success" | "warning" | "error";

export type AlertBannerProps = {
  variant?: AlertVariant;
  heading?: ReactNode;
  headingLevel?: HeadingLevel;
  children?: ReactNode;
  /**
   * Pass "alert" or "status" only when the banner appears after the page has loaded;
   * a banner that is part of the server-rendered page needs no live role.
   */
  role?: "alert" | "status";
  className?: string;
};

/** A page-level message box. Without a heading it gets a visually hidden "Viktig:"-style prefix. */
export function AlertBanner({
  variant = "info",
  heading,
  headingLevel = 2,
  children,
  role,
  className,
}: AlertBannerProps) {
  const { t } = useTranslation("ui");
  const headingId = useId();
  const Heading = headingTag(headingLevel);
  return (
    <div
      className={cx("ui-alert", `ui-alert--${variant}`, className)}
      role={role}
      // Only a live region is named by its heading: a div without a role cannot have a name (ARIA's
      // generic role prohibits one), and the heading already opens the box for a screen reader.
      aria-labelledby={heading && role ? headingId : undefined}
    >
      {heading ? (
        <Heading className="ui-alert__heading" id={headingId}>
          {heading}
        </Heading>
      ) : null}
      {children ? (
        <div className="ui-alert__body">
          {heading ? null : <span className="ui-visually-hidden">{`${t(`alertPrefix.${variant}`)} `}</span>}
          {children}
        </div>
      ) : null}
    </div>
  );
}
