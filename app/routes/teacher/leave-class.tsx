import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { ConfirmActions } from "~/components/app/ConfirmStep";
import { PageHeading } from "~/components/ui";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enConfirmSteps from "~/locales/en/confirmSteps.json";
import nbConfirmSteps from "~/locales/nb/confirmSteps.json";
import { classHeader } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { idParam, notFound } from "~/services/platform/ids";
import { leaveClass, requireClassTeacher, studentsLosingTeacher } from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/leave-class";

provideNamespace("confirmSteps", { nb: nbConfirmSteps, en: enConfirmSteps });

export const handle = { titleKey: "confirmSteps:leave.title" };

/**
 * Leaving a class asks first, on a page of its own (as cancelling a signing form and deleting a
 * warning do): the students who lose their teacher, by name, then "Ja, forlat emnet". The post
 * names the students it showed (`students`, their ids): if the list has changed meanwhile, the
 * page is shown again instead of leaving more students without a teacher than the person saw.
 */
async function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireRole(args.request, args.context, ROLE.Teacher);
  const classId = idParam(args.params.classId);
  const db = await getDb();
  // Only a teacher of the class can leave it; anyone else is told nothing about it.
  await requireClassTeacher(db, { userId: session.user.id, role: ROLE.Teacher }, classId);
  const header = (await classHeader(db, classId)) ?? notFound();
  return {
    session,
    db,
    classId,
    header,
    subject: `${header.subjectCode} ${header.subjectName}`,
    self: href("/teacher/class/:classId/leave", { classId: String(classId) }),
  };
}

const idsOf = (students: { userId: number }[]) =>
  students
    .map((s) => s.userId)
    .sort((a, b) => a - b)
    .join(",");

export async function loader(args: Route.LoaderArgs) {
  const { session, db, classId, header, subject } = await guard(args);
  const students = await studentsLosingTeacher(db, { classId, userId: session.user.id });
  return {
    subject,
    semesterName: header.semesterName,
    classPage: href("/teacher/class/:classId", { classId: String(classId) }),
    students,
    seen: idsOf(students),
  };
}

export async function action(args: Route.ActionArgs) {
  const { session, db, classId, subject, self } = await guard(args);
  const form = await readFormData(args.request);
  const seen = form.get("students");
  if (form.get("intent") !== "leave" || typeof seen !== "string" || !/^(\d{1,10}(,\d{1,10})*)?$/.test(seen)) {
    throw new Response("Bad Request", { status: 400 });
  }
  const now = await studentsLosingTeacher(db, { classId, userId: session.user.id });
  if (idsOf(now) !== seen) return redirectWithFlash(self, { type: "error", key: "confirmSteps:leave.changed" });
  const outcome = await leaveClass(db, { classId, userId: session.user.id, ip: clientAddress(args.request) });
  if (!outcome.ok) notFound();
  const { released } = outcome;
  return redirectWithFlash(
    "/teacher",
    released.length === 0
      ? { type: "success", key: "teacher:class.left", values: { subject } }
      : {
          type: "success",
          key: "teacher:class.leftReleased",
          values: { subject, count: released.length, names: released.map((s) => s.displayName).join(", ") },
        },
  );
}

export default function LeaveClass({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("confirmSteps");
  const { t: tt } = useTranslation("teacher");
  const { subject, semesterName, classPage, students, seen } = loaderData;
  return (
    <div className="app-content">
      <PageHeading caption={semesterName}>{t("leave.heading", { subject })}</PageHeading>
      <p>{tt("class.leave.text")}</p>
      {students.length === 0 ? (
        <p>{t("leave.none")}</p>
      ) : (
        <section aria-labelledby="released-heading">
          <h2 id="released-heading">{t("leave.released", { count: students.length })}</h2>
          <ul>
            {students.map((s) => (
              <li key={s.userId}>{s.displayName}</li>
            ))}
          </ul>
          <p>{t("leave.releasedText")}</p>
        </section>
      )}
      <ConfirmActions
        fields={{ intent: "leave", students: seen }}
        confirm={t("leave.confirm")}
        back={{ label: t("leave.back"), href: classPage }}
      />
    </div>
  );
}
