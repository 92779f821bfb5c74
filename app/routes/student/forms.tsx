import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { SigningFormCard } from "~/components/app/SigningFormCard";
import { ButtonGroup, LinkButton, PageHeading, Table, Tag, VisuallyHidden } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { deadlineText } from "~/services/placements";
import { getLanguage } from "~/services/platform/i18n.server";
import { notFound } from "~/services/platform/ids";
import {
  requireStudentAccess,
  placementOf,
  type FormProgress,
  documentPaths,
  formsByHalf,
  hasSupervisor,
  requireCurrentReference,
  studentFormPath,
  studentResultsPath,
} from "~/services/placements/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { formatDay, osloDate } from "~/services/platform/semesters";
import { signingFormCard } from "~/services/signing/index.server";
import type { Route } from "./+types/forms";

export const handle = { titleKey: "student:forms.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Student);
  const userId = session.user.id;
  const db = await getDb();
  const today = osloDate(new Date());
  const reference = await requireCurrentReference(db, request, userId, today);
  await requireStudentAccess(db, { userId, role: ROLE.Student }, reference.classId, userId);
  const placement = (await placementOf(db, reference.referenceId, userId, today)) ?? notFound();

  const language = getLanguage(context);
  const classId = placement.header.classId;
  const row = (form: FormProgress) => ({
    key: `${form.assignmentId}-${form.formId}`,
    name: form.name,
    state: form.own.state,
    at: form.own.at ? formatDay(osloDate(form.own.at), language) : null,
    href: studentFormPath(userId, form, classId),
    resultsHref: studentResultsPath(userId, form.formId, classId),
  });
  const { current, other } = formsByHalf(placement);
  const signingForm = await signingFormCard(db, placement.referenceId, language);
  const person = (p: { userId: number; displayName: string; email: string }) => ({
    userId: p.userId,
    displayName: p.displayName,
    email: p.email,
  });

  return {
    header: {
      subjectCode: placement.header.subjectCode,
      subjectName: placement.header.subjectName,
      periodName: placement.header.periodName,
    },
    signingForm,
    documents: documentPaths(classId, userId, signingForm.state !== "notCreated"),
    signingFormHref: `/student/class/${classId}/student/${userId}/signingform`,
    teacher: placement.teacher ? person(placement.teacher) : null,
    advisor: placement.advisor ? person(placement.advisor) : null,
    extraSupervisors: placement.extraSupervisors.map(person),
    mayInvite: !hasSupervisor(placement),
    half: current.half,
    deadline: placement.half.deadline ? deadlineText(placement.half.deadline) : null,
    mainForms: current.mainForms.map(row),
    specificForms: current.specificForms.map(row),
    other: { half: other.half, forms: other.forms.map(row) },
  };
}

type FormRow = Route.ComponentProps["loaderData"]["mainForms"][number];

/** `closed`: the teacher has confirmed the half (the mid-semester part), so its forms are there to be seen. */
function FormTable({
  caption,
  rows,
  links,
  closed = false,
}: {
  caption: string;
  rows: FormRow[];
  links: boolean;
  closed?: boolean;
}) {
  const { t } = useTranslation("student");
  const status = (row: FormRow) =>
    row.state === "sent" ? (
      <Tag variant="success">{t("forms.sent", { date: row.at })}</Tag>
    ) : row.state === "draft" ? (
      <Tag variant="warning">{t("forms.draft", { date: row.at })}</Tag>
    ) : (
      <Tag variant="neutral">{t("forms.notBegun")}</Tag>
    );
  const verb = (row: FormRow) =>
    closed
      ? t("forms.view")
      : row.state === "sent"
        ? t("forms.open")
        : row.state === "draft"
          ? t("forms.continue")
          : t("forms.start");
  return (
    <Table
      caption={caption}
      captionHidden
      rowHeaders
      columns={[
        { header: t("forms.form") },
        { header: t("forms.status") },
        ...(links ? [{ header: <VisuallyHidden>{t("forms.action")}</VisuallyHidden> }] : []),
      ]}
      rows={rows.map((row) => ({
        key: row.key,
        cells: [
          row.name,
          status(row),
          ...(links
            ? [
                <ul className="student-form-links" key="links">
                  <li>
                    <Link to={row.href}>
                      {verb(row)}
                      <VisuallyHidden> {row.name}</VisuallyHidden>
                    </Link>
                  </li>
                  <li>
                    <Link to={row.resultsHref}>
                      {t("forms.results")}
                      <VisuallyHidden> {t("forms.resultsFor", { form: row.name })}</VisuallyHidden>
                    </Link>
                  </li>
                </ul>,
              ]
            : []),
        ],
      }))}
    />
  );
}

export default function StudentForms({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("student");
  const {
    header,
    documents,
    teacher,
    advisor,
    extraSupervisors,
    mayInvite,
    half,
    deadline,
    mainForms,
    specificForms,
    other,
  } = loaderData;
  const { signingForm, signingFormHref } = loaderData;
  const currentHeading = half === "mid" ? t("forms.currentMid") : t("forms.currentEnd");
  // The mid-semester half is over either because the teacher confirmed it ("avsluttet": its forms
  // are to be seen) or because its date has passed (its forms can still be sent).
  const midConfirmed = signingForm.midDateText !== null;
  const otherHeading =
    other.half === "end" ? t("forms.otherEnd") : midConfirmed ? t("forms.otherMid") : t("forms.otherMidLate");

  return (
    <div className="app-content">
      <PageHeading caption={header.periodName}>
        {header.subjectCode} {header.subjectName}
      </PageHeading>

      <ButtonGroup>
        <LinkButton to={documents.fullPdf} reloadDocument variant="secondary">
          {t("forms.downloadForms")}
        </LinkButton>
        {documents.signingFormPdf ? (
          <LinkButton to={documents.signingFormPdf} reloadDocument variant="secondary">
            {t("forms.downloadSigningForm")}
          </LinkButton>
        ) : null}
      </ButtonGroup>

      <h2>{t("forms.peopleHeading")}</h2>
      <ul className="student-people">
        {teacher ? (
          <li>
            <Tag variant="info">
              <abbr title={t("forms.teacherRole")}>PL</abbr>
            </Tag>{" "}
            <VisuallyHidden>{t("forms.teacherRole")}: </VisuallyHidden>
            {teacher.displayName} <a href={`mailto:${teacher.email}`}>{teacher.email}</a>
          </li>
        ) : (
          <li>{t("forms.noTeacher")}</li>
        )}
        {advisor ? (
          <li>
            <Tag variant="info">
              <abbr title={t("forms.supervisorRole")}>PV</abbr>
            </Tag>{" "}
            <VisuallyHidden>{t("forms.supervisorRole")}: </VisuallyHidden>
            {advisor.displayName} <a href={`mailto:${advisor.email}`}>{advisor.email}</a>
          </li>
        ) : null}
        {extraSupervisors.map((p) => (
          <li key={p.userId}>
            <Tag variant="info">
              <abbr title={t("forms.supervisorRole")}>PV</abbr>
            </Tag>{" "}
            <VisuallyHidden>{t("forms.supervisorRole")}: </VisuallyHidden>
            {p.displayName} <span className="app-meta">({t("forms.extraSupervisor")})</span>{" "}
            <a href={`mailto:${p.email}`}>{p.email}</a>
          </li>
        ))}
      </ul>
      {mayInvite ? (
        <>
          <p>{t("forms.noSupervisor")}</p>
          <LinkButton to="/student/supervisor/invite">{t("forms.inviteSupervisor")}</LinkButton>
        </>
      ) : null}

      {/* The card shows once the teacher has created the form: before that there is nothing to open. */}
      {signingForm.state === "notCreated" ? null : <SigningFormCard card={signingForm} href={signingFormHref} />}

      <h2>{currentHeading}</h2>
      <p className="student-deadline">
        {deadline
          ? t(half === "mid" ? "forms.deadlineMid" : "forms.deadlineEnd", { date: deadline })
          : t("forms.noDeadline")}
      </p>
      {mainForms.length + specificForms.length === 0 ? (
        <p>{t("forms.noSchemes")}</p>
      ) : (
        <>
          {mainForms.length > 0 ? (
            <>
              <h3>{t("forms.mainForms")}</h3>
              <FormTable caption={t("forms.mainForms")} rows={mainForms} links />
            </>
          ) : null}
          {specificForms.length > 0 ? (
            <>
              <h3>{t("forms.specificForms")}</h3>
              <FormTable caption={t("forms.specificForms")} rows={specificForms} links />
            </>
          ) : null}
        </>
      )}

      {other.forms.length > 0 ? (
        <>
          <h2>{otherHeading}</h2>
          {other.half === "end" ? <p>{t("forms.otherEndHint")}</p> : null}
          <FormTable caption={otherHeading} rows={other.forms} links={other.half === "mid"} closed={midConfirmed} />
        </>
      ) : null}
    </div>
  );
}
