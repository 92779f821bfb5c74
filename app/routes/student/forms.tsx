import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { SigningFormCard } from "~/components/app/SigningFormCard";
import { StudentCurrentForms, StudentOtherForms } from "~/components/app/StudentFormLists";
import { StudentPeople } from "~/components/app/StudentPeople";
import { ButtonGroup, LinkButton, PageHeading } from "~/components/ui";
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
    key: `${form.schemeId}-${form.formId}`,
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
      semesterName: placement.header.semesterName,
    },
    signingForm,
    documents: documentPaths(classId, userId, signingForm.state !== "notCreated"),
    signingFormHref: href("/student/class/:classId/student/:studentUserId/signingform", {
      classId: String(classId),
      studentUserId: String(userId),
    }),
    teacher: placement.teacher ? person(placement.teacher) : null,
    supervisor: placement.supervisor ? person(placement.supervisor) : null,
    extraSupervisors: placement.extraSupervisors.map(person),
    mayInvite: !hasSupervisor(placement),
    half: current.half,
    deadline: placement.half.deadline ? deadlineText(placement.half.deadline) : null,
    mainForms: current.mainForms.map(row),
    specificForms: current.specificForms.map(row),
    other: { half: other.half, forms: other.forms.map(row) },
  };
}

export default function StudentForms({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("student");
  const { header, documents, signingForm, signingFormHref, half, deadline, mainForms, specificForms, other } =
    loaderData;
  return (
    <div className="app-content">
      <PageHeading caption={header.semesterName}>
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

      <StudentPeople
        teacher={loaderData.teacher}
        supervisor={loaderData.supervisor}
        extraSupervisors={loaderData.extraSupervisors}
        mayInvite={loaderData.mayInvite}
      />

      {/* The card shows once the teacher has created the form: before that there is nothing to open. */}
      {signingForm.state === "notCreated" ? null : <SigningFormCard card={signingForm} href={signingFormHref} />}

      <StudentCurrentForms half={half} deadline={deadline} mainForms={mainForms} specificForms={specificForms} />
      {/* The mid-semester half is over either because the teacher confirmed it or because its date has passed. */}
      <StudentOtherForms half={other.half} forms={other.forms} midConfirmed={signingForm.midDateText !== null} />
    </div>
  );
}
