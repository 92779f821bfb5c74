import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { href } from "~/components/href";
import { SigningFormCard } from "~/components/app/SigningFormCard";
import { StudentPlacement } from "~/components/app/StudentPlacement";
import { TeacherStudentSupervisors, useSupervisorForms } from "~/components/app/TeacherStudentSupervisors";
import { WarningCard } from "~/components/app/WarningCard";
import { ErrorSummary, PageHeading } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound, parseId } from "~/services/platform/ids";
import {
  requireStudentAccess,
  placementOf,
  addExtraSupervisor,
  chosenSupervisor,
  displayNameOf,
  placementForView,
  removeExtraSupervisor,
  setAssignedSupervisor,
  supervisorChoices,
  supervisorsOfClass,
} from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { signingFormCard } from "~/services/signing/index.server";
import { warningFor, warningForView } from "~/services/warnings/index.server";
import { addExtraSchema, removeExtraSchema, supervisorSchema } from "./student.schema";
import type { Route } from "./+types/student";

export const handle = { titleKey: "placement:teacher.title" };

async function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireRole(args.request, args.context, ROLE.Teacher);
  const classId = idParam(args.params.classId);
  const studentUserId = idParam(args.params.userId);
  const db = await getDb();
  const viewer = { userId: session.user.id, role: ROLE.Teacher };
  const access = await requireStudentAccess(db, viewer, classId, studentUserId);
  return { session, db, access, classId, studentUserId };
}

export async function loader(args: Route.LoaderArgs) {
  const { session, db, access, classId, studentUserId } = await guard(args);
  const opening = {
    viewerUserId: session.user.id,
    viewerRole: ROLE.Teacher,
    studentUserId,
    classId,
    kind: "studentPage",
  } as const;
  const [placement, supervisors, warning] = await Promise.all([
    placementOf(db, access.referenceId, session.user.id),
    supervisorsOfClass(db, classId),
    warningFor(db, access),
    recordOpening(db, opening),
  ]);
  if (!placement) notFound();
  return {
    placement: placementForView(placement, getLanguage(args.context)),
    warning: warning ? warningForView(warning, getLanguage(args.context)) : null,
    ...supervisorChoices(placement, supervisors),
    signingForm: await signingFormCard(db, access.referenceId, getLanguage(args.context)),
  };
}

/** A refused post: the form's reply (its messages and what was chosen), marked with the form it answers. */
function refused<I extends "setSupervisor" | "addExtra" | "removeExtra">(intent: I, result: SubmissionResult) {
  return data({ intent, result }, { status: 400 });
}

export async function action(args: Route.ActionArgs) {
  const { session, db, access, classId, studentUserId } = await guard(args);
  const formData = await readFormData(args.request);
  const intent = formData.get("intent");
  const self = href("/teacher/class/:classId/student/:userId", {
    classId: String(classId),
    userId: String(studentUserId),
  });
  const base = {
    referenceId: access.referenceId,
    classId,
    studentUserId,
    actorUserId: session.user.id,
    ip: clientAddress(args.request),
  };
  const nameOf = (userId: number) => displayNameOf(db, userId);

  if (intent === "setSupervisor") {
    const submission = parseWithZod(formData, { schema: supervisorSchema });
    if (submission.status !== "success") return refused(intent, submission.reply());
    const chosen = chosenSupervisor(submission.value.supervisorUserId);
    const supervisorUserId = chosen.ok ? chosen.supervisorUserId : null;
    const outcome = chosen.ok ? await setAssignedSupervisor(db, { ...base, supervisorUserId }) : chosen;
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      const supervisorError = [`placement:errors.${outcome.error}`];
      return refused(intent, submission.reply({ fieldErrors: { supervisorUserId: supervisorError } }));
    }
    if (!outcome.changed)
      return redirectWithFlash(self, { type: "info", key: "placement:teacher.supervisorUnchanged" });
    const student = await nameOf(studentUserId);
    if (supervisorUserId === null)
      return redirectWithFlash(self, {
        type: "success",
        key: "placement:teacher.supervisorCleared",
        values: { student },
      });
    const values = { student, supervisor: await nameOf(supervisorUserId) };
    return redirectWithFlash(self, { type: "success", key: "placement:teacher.supervisorSaved", values });
  }

  if (intent === "addExtra") {
    const submission = parseWithZod(formData, { schema: addExtraSchema });
    if (submission.status !== "success") return refused(intent, submission.reply());
    const userId = parseId(submission.value.extraUserId);
    const outcome =
      userId === null
        ? ({ ok: false, error: "notClassSupervisor" } as const)
        : await addExtraSupervisor(db, { ...base, userId });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      const extraError = [`placement:errors.${outcome.error}`];
      return refused(intent, submission.reply({ fieldErrors: { extraUserId: extraError } }));
    }
    const values = { supervisor: await nameOf(userId!) };
    return redirectWithFlash(self, { type: "success", key: "placement:teacher.extraAdded", values });
  }

  if (intent === "removeExtra") {
    const submission = parseWithZod(formData, { schema: removeExtraSchema });
    if (submission.status !== "success") return refused(intent, submission.reply());
    const userId = parseId(submission.value.removeUserId);
    const values = { supervisor: userId === null ? "" : await nameOf(userId) };
    const outcome =
      userId === null
        ? ({ ok: false, error: "notExtra" } as const)
        : await removeExtraSupervisor(db, { ...base, userId });
    if (!outcome.ok) {
      const removeError = [`placement:errors.${outcome.error}`];
      return refused(intent, submission.reply({ fieldErrors: { removeUserId: removeError } }));
    }
    return redirectWithFlash(self, { type: "success", key: "placement:teacher.extraRemoved", values });
  }

  throw new Response("Bad Request", { status: 400 });
}

export default function TeacherStudent({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("placement");
  const { placement, warning, supervisorChoices, extraCandidates, classHasSupervisors, signingForm } = loaderData;
  const { header, student } = placement;
  const ids = { classId: String(header.classId), studentUserId: String(student.userId) };

  const forms = useSupervisorForms(actionData, {
    supervisor: () => import("./student.schema").then((m) => m.supervisorSchema),
    extra: () => import("./student.schema").then((m) => m.addExtraSchema),
  });

  return (
    <div className="app-content">
      <p>
        <Link to={href("/teacher/class/:classId", ids)}>
          {t("backToClass", { subjectCode: header.subjectCode, subjectName: header.subjectName })}
        </Link>
      </p>
      <ErrorSummary errors={forms.summary} />
      <PageHeading caption={`${header.subjectCode} ${header.subjectName}, ${header.semesterName}`}>
        {student.displayName}
      </PageHeading>

      <StudentPlacement
        placement={placement}
        formHref={(f) =>
          href("/teacher/class/:classId/student/:studentUserId/form/:formId/assignment/:schemeId", {
            ...ids,
            formId: String(f.formId),
            schemeId: String(f.schemeId),
          })
        }
        resultsHref={(f) =>
          href("/teacher/class/:classId/student/:studentUserId/form/:formId/results", {
            ...ids,
            formId: String(f.formId),
          })
        }
        supervisorHref={(userId) =>
          href("/teacher/class/:classId/supervisor/:userId", { classId: ids.classId, userId: String(userId) })
        }
        controls={
          // Choosing the student's supervisors: last on the page, after the assessment and who follows the student.
          <TeacherStudentSupervisors
            placement={placement}
            supervisorChoices={supervisorChoices}
            extraCandidates={extraCandidates}
            classHasSupervisors={classHasSupervisors}
            forms={forms}
          />
        }
      >
        <SigningFormCard
          card={signingForm}
          href={href("/teacher/class/:classId/student/:studentUserId/signingform", ids)}
          mayCreate
        />
        <WarningCard warning={warning} href={href("/teacher/class/:classId/student/:studentUserId/warning", ids)} />
      </StudentPlacement>
    </div>
  );
}
