import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { SummaryList, Table, Tag, VisuallyHidden } from "~/components/ui";
import type { PlacementView } from "~/services/placements/index.server";

type FormView = PlacementView["schemes"][number]["forms"][number];

export interface StudentPlacementProps {
  placement: PlacementView;
  /** The viewer's role decides where a form is answered (the role's form page). */
  formHref: (form: { formId: number; schemeId: number }) => string;
  /** Where the viewer sees a form's grades side by side (both halves). */
  resultsHref: (form: { formId: number }) => string;
  /** Where a supervisor's name leads (the teacher's page of that supervisor); plain text without. */
  supervisorHref?: (userId: number) => string;
  /** What belongs with the current assessment (the signing form's and the warning's cards), right after its forms. */
  children?: ReactNode;
  /** The viewer's own controls (choosing supervisors), last, under the people who follow the student. */
  controls?: ReactNode;
}

function Person({ person, href }: { person: { userId: number; displayName: string; email: string }; href?: string }) {
  return (
    <>
      {href ? <Link to={href}>{person.displayName}</Link> : person.displayName}{" "}
      <span className="placement-email">({person.email})</span>
    </>
  );
}

/** One half's forms: who has sent each, the viewer's own state, and where the viewer answers it. */
function PlacementHalf({
  isMid,
  forms,
  current,
  formHref,
  resultsHref,
}: {
  isMid: boolean;
  forms: FormView[];
  current: boolean;
  formHref: StudentPlacementProps["formHref"];
  resultsHref: StudentPlacementProps["resultsHref"];
}) {
  const { t } = useTranslation("placement");
  const halfName = isMid ? t("half.mid") : t("half.end");
  const sent = (date: string | null) => (date ? t("forms.sentOn", { date }) : t("forms.notSent"));
  const own = (form: FormView) =>
    form.own.state === "sent"
      ? t("forms.ownSent", { date: form.own.atText })
      : form.own.state === "draft"
        ? t("forms.ownDraft", { date: form.own.atText })
        : t("forms.ownNone");
  return (
    <section aria-labelledby={`placement-${isMid ? "mid" : "end"}`}>
      <h2 id={`placement-${isMid ? "mid" : "end"}`}>
        {halfName}
        {current ? (
          <>
            {" "}
            <Tag variant="success">{t("forms.current")}</Tag>
          </>
        ) : null}
      </h2>
      {forms.length === 0 ? (
        <p>{t("forms.noForms")}</p>
      ) : (
        <Table
          caption={t("forms.caption", { half: halfName.toLowerCase() })}
          captionHidden
          rowHeaders
          columns={[
            { header: t("forms.form") },
            { header: t("forms.student") },
            { header: t("forms.supervisor") },
            { header: t("forms.teacher") },
            { header: t("forms.own") },
          ]}
          rows={forms.map((form) => ({
            key: `${form.schemeId}-${form.formId}`,
            cells: [
              <>
                <Link to={formHref(form)}>
                  {form.name}
                  <VisuallyHidden> ({halfName.toLowerCase()})</VisuallyHidden>
                </Link>
                <br />
                <Tag variant={form.isMainForm ? "info" : "neutral"}>
                  {form.isMainForm ? t("forms.mainForm") : t("forms.specific")}
                </Tag>
                <br />
                <Link to={resultsHref(form)} className="placement-results-link">
                  {t("forms.results")}
                  <VisuallyHidden> {t("forms.resultsFor", { form: form.name })}</VisuallyHidden>
                </Link>
              </>,
              sent(form.sentBy.student),
              sent(form.sentBy.supervisor),
              sent(form.sentBy.teacher),
              own(form),
            ],
          }))}
        />
      )}
    </section>
  );
}

/** Who follows the student (PL, PV, extra PV), and the half the student is in with its deadline. */
function PlacementPeople({
  placement,
  supervisorHref,
}: {
  placement: PlacementView;
  supervisorHref: StudentPlacementProps["supervisorHref"];
}) {
  const { t } = useTranslation("placement");
  const { student, teacher, supervisor, extraSupervisors, half } = placement;
  const halfName = (isMid: boolean) => (isMid ? t("half.mid") : t("half.end"));
  return (
    <SummaryList
      rows={[
        { key: t("people.student"), value: <Person person={student} /> },
        {
          key: (
            <>
              {t("people.teacher")} <Tag variant="info">{t("people.teacherBadge")}</Tag>
            </>
          ),
          value: teacher ? <Person person={teacher} /> : t("people.none"),
        },
        {
          key: (
            <>
              {t("people.supervisor")} <Tag variant="info">{t("people.supervisorBadge")}</Tag>
            </>
          ),
          value: supervisor ? (
            <Person person={supervisor} href={supervisorHref?.(supervisor.userId)} />
          ) : (
            t("people.none")
          ),
        },
        {
          key: (
            <>
              {t("people.extraSupervisors")} <Tag variant="info">{t("people.supervisorBadge")}</Tag>
            </>
          ),
          value:
            extraSupervisors.length === 0 ? (
              t("people.none")
            ) : (
              <ul className="placement-list">
                {extraSupervisors.map((p) => (
                  <li key={p.userId}>
                    <Person person={p} href={supervisorHref?.(p.userId)} />
                  </li>
                ))}
              </ul>
            ),
        },
        {
          key: t("half.now"),
          value: half.deadlineText
            ? t("half.value", { half: halfName(half.half === "mid"), deadline: half.deadlineText })
            : t("half.noDeadline", { half: halfName(half.half === "mid") }),
        },
      ]}
    />
  );
}

/**
 * A student's placement in one class: who follows the student (PL, PV, extra PV), the half the
 * student is in and its deadline, and per half the forms with who has sent them and the viewer's
 * own state, each form linking to where the viewer answers it. Shared by the teacher's and the
 * supervisor's student pages.
 */
export function StudentPlacement({
  placement,
  formHref,
  resultsHref,
  supervisorHref,
  children,
  controls,
}: StudentPlacementProps) {
  const { t } = useTranslation("placement");
  const { student, half, schemes } = placement;

  // One table per half, even when an admin made several schemes for it.
  const halves = [true, false]
    .map((isMid) => ({
      isMid,
      forms: schemes.filter((s) => s.isMidSemester === isMid).flatMap((s) => s.forms),
      hasScheme: schemes.some((s) => s.isMidSemester === isMid),
    }))
    .filter((h) => h.hasScheme);

  const halfSection = ({ isMid, forms }: (typeof halves)[number]) => (
    <PlacementHalf
      key={String(isMid)}
      isMid={isMid}
      forms={forms}
      current={half.half === (isMid ? "mid" : "end")}
      formHref={formHref}
      resultsHref={resultsHref}
    />
  );

  // The current assessment first (its forms, then the signing form and the warning), then who
  // follows the student, the other half, and the viewer's controls last.
  const isCurrent = (isMid: boolean) => half.half === (isMid ? "mid" : "end");
  return (
    <>
      {halves.length === 0 ? (
        <>
          <h2>{t("forms.heading")}</h2>
          <p>{t("forms.none")}</p>
        </>
      ) : null}
      {halves.filter((h) => isCurrent(h.isMid)).map(halfSection)}
      {children}
      <h2>{t("people.heading")}</h2>
      <PlacementPeople placement={placement} supervisorHref={supervisorHref} />
      <p>
        {/* A resource route (a file), so a full document request rather than client navigation. */}
        <a
          href={href("/api/classes/:classId/students/:studentUserId/full/pdf", {
            classId: String(placement.header.classId),
            studentUserId: String(student.userId),
          })}
        >
          {t("downloadPdf")}
        </a>
      </p>

      {halves.filter((h) => !isCurrent(h.isMid)).map(halfSection)}
      {controls}
    </>
  );
}
