import { useId } from "react";
import { useTranslation } from "react-i18next";
import { createContext, Link, Outlet, useMatches } from "react-router";
import { getDb } from "~/services/platform/db/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { osloDate } from "~/services/platform/semesters";
import { requireCurrentReference, type CurrentReference } from "~/services/placements/index.server";
import { warningStateOf } from "~/services/warnings/index.server";
import type { Route } from "./+types/class-layout";
import "~/styles/warning-alert.css";

/** The student's class, as the middleware found it, for the layout's loader. */
const referenceContext = createContext<CurrentReference | null>(null);

/**
 * Every student page below needs a class this semester (their forms, warning and supervisor all belong to one): a student without one is sent
 * to /student, where they can join one. The pages check again themselves.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    const session = requireRole(request, context, ROLE.Student);
    context.set(
      referenceContext,
      await requireCurrentReference(await getDb(), request, session.user.id, osloDate(new Date())),
    );
    return next();
  },
];

/** Whether a given warning waits for the student to confirm it: the alert on every page of the class. */
export async function loader({ context }: Route.LoaderArgs) {
  const reference = context.get(referenceContext);
  if (!reference) throw new Error("the student's class is set by the layout's middleware");
  return { warningToConfirm: (await warningStateOf(await getDb(), reference.referenceId)) === "given" };
}

export default function StudentClassLayout({ loaderData }: Route.ComponentProps) {
  const showsWarning = useMatches().some(
    (match) => (match.handle as { showsWarning?: boolean } | undefined)?.showsWarning,
  );
  const alert = loaderData.warningToConfirm && !showsWarning;
  return (
    <>
      {alert ? <WarningAlert /> : null}
      {/* Always there, so the page is not mounted anew when the alert goes (a class changes, nothing else). */}
      <div className={alert ? "warning-alert-below" : undefined}>
        <Outlet />
      </div>
    </>
  );
}

/**
 * The warning alert, on every page of a student who has been given a warning, so it is not missed. Part of the page as served, so a labelled region (a landmark, and
 * a heading to jump to) rather than a live region that would interrupt on every page load.
 */
function WarningAlert() {
  const { t } = useTranslation("warnings");
  const headingId = useId();
  return (
    <section className="warning-alert" aria-labelledby={headingId}>
      <h2 className="warning-alert__heading" id={headingId}>
        {t("alert.heading")}
      </h2>
      <p className="warning-alert__text">
        {t("alert.text")} <Link to="/student/warning">{t("alert.link")}</Link>
      </p>
    </section>
  );
}
