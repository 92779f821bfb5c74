import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { WarningForView } from "~/services/warnings/index.server";
import { WarningContent, WarningStateTag } from "./Warning";

// The staff's card apart from the warning pages' pieces (Warning.tsx): the teacher's warning page,
// the heaviest page, does not load it.

/** One line about the warning for the staff's student pages: given by whom and when, confirmed or not. */
function cardText(
  t: (key: string, options?: Record<string, unknown>) => string,
  warning: WarningForView | null,
): string {
  if (!warning) return t("card.none");
  if (warning.state === "draft") return t("card.draft");
  return t(`card.${warning.state}`, {
    teacher: warning.teacherName,
    date: warning.givenText,
    confirmed: warning.confirmedText,
  });
}

/**
 * The warning on a teacher's or supervisor's page of a student. The teacher gets the way to it
 * (`href`); the supervisor, who may only read, gets the text itself.
 */
export function WarningCard({ warning, href }: { warning: WarningForView | null; href?: string }) {
  const { t } = useTranslation("warnings");
  const headingId = useId();
  const action = !warning ? "write" : warning.state === "draft" ? "continue" : "open";
  return (
    <section className="warning-card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {t("card.heading")} {warning ? <WarningStateTag state={warning.state} /> : null}
      </h2>
      <p>{cardText(t, warning)}</p>
      {warning && !href && warning.state !== "draft" ? <WarningContent text={warning.text} headingLevel={3} /> : null}
      {href ? (
        <p>
          <Link to={href}>{t(`card.${action}`)}</Link>
        </p>
      ) : null}
    </section>
  );
}
