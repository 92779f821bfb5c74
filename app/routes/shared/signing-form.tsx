import type { Submission as ParsedSubmission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { href } from "~/components/href";
import { SIGNING_SCHEMAS } from "~/services/signing/signing-intents.schema";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import type { MessageKey } from "~/locales/keys";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import { currentInstitution } from "~/services/platform/institution.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireAreaRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { formatDay, osloDate } from "~/services/platform/semesters";
import { INTENTS, mayAttempt, NEW_FORM_ID, type Intent, type Refusal } from "~/services/signing";
import {
  cancelForm,
  midStep,
  requireSentForms,
  resubmitResult,
  saveEndPart,
  sendingFacts,
  signForm,
  signingFormView,
  signingPlace,
  validationSummary,
  type Submission,
} from "~/services/signing/index.server";
import { FreshPage } from "~/components/fresh-page";
import type { Route } from "./+types/signing-form";
import { midConfirmView, sendingView, validationView, type MidConfirmView } from "~/components/app/SigningFormSections";
import { SigningFormPage as SigningForm } from "~/components/app/SigningFormPage";
import { provideNamespace } from "~/i18n-client/page-namespaces";

export const handle = { titleKey: "signing:page.title" };

/** The viewer (in the role of the area the page's route entry is in: student, teacher or supervisor) and the student the URL names. */
function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireAreaRole(args.request, args.context);
  const role = session.activeRole;
  if (role !== ROLE.Student && role !== ROLE.Teacher && role !== ROLE.Supervisor) notFound();
  return {
    viewer: { userId: session.user.id, role },
    classId: idParam(args.params.classId),
    studentUserId: idParam(args.params.studentUserId),
  };
}

/** Where the back link leads: the student's forms page, or the staff member's page of the student. */
function backPath(role: number, classId: number, studentUserId: number): string {
  if (role === ROLE.Student) return href("/student/forms");
  const ids = { classId: String(classId), userId: String(studentUserId) };
  return role === ROLE.Teacher
    ? href("/teacher/class/:classId/student/:userId", ids)
    : href("/supervisor/class/:classId/student/:userId", ids);
}

export async function loader(args: Route.LoaderArgs) {
  const { viewer, classId, studentUserId } = guard(args);
  const db = await getDb();
  const language = getLanguage(args.context);
  const place = await signingPlace(db, viewer, classId, studentUserId);
  const ids = { classId: String(classId), studentUserId: String(studentUserId) };
  const opening = { viewerUserId: viewer.userId, viewerRole: viewer.role, studentUserId, classId } as const;
  const teacher = place.relation === "teacher";
  const [view, summary, facts] = await Promise.all([
    signingFormView(db, place, viewer.userId, language),
    teacher ? validationSummary(db, place, viewer.userId) : null,
    teacher ? sendingFacts(db, place, viewer.userId) : null,
    recordOpening(db, { ...opening, kind: "signingForm" }),
  ]);
  const sending = facts && sendingView(facts, { classId, studentUserId }, requireSentForms());
  const url = new URL(args.request.url);
  return {
    view,
    validation: summary && validationView(summary, (at) => formatDay(osloDate(at), language)),
    sending,
    // The texts of the teacher's check and the mid-semester confirmation come with the page's data,
    // in its language only: the page's script stays within its weight (they are the teacher's alone).
    checkTexts: teacher
      ? {
          language,
          texts: getInstance(args.context).getResourceBundle(language, "signingCheck") as Record<string, unknown>,
        }
      : null,
    back: backPath(viewer.role, classId, studentUserId),
    confirmCancel: url.searchParams.get("confirm") === "cancel" && view.rights.cancel,
    pdfHref:
      view.id === NEW_FORM_ID ? null : href("/api/classes/:classId/students/:studentUserId/signingform/pdf", ids),
    declaration: currentInstitution()[language].signingForm.declaration,
    today: osloDate(new Date()),
  };
}

/** The same page again, refused: the form (`intent`) and conform's reply (no mid-semester confirmation to show). */
const refusedReply = (intent: Intent, result: SubmissionResult<string[]>, status: 400 | 409) =>
  data({ intent, result, confirmMid: null as MidConfirmView | null }, { status });

/** The refusals about forms not sent have their texts with this page's check (signingCheck). */
const refusedKey = (reason: string) =>
  reason === "formsNotSent" ? `signingCheck:refused.${reason}` : `signing:refused.${reason}`;
const errorKey = (error: string) =>
  error === "acknowledgeUnsent" ? `signingCheck:errors.${error}` : `signing:errors.${error}`;

type Parsed = Pick<ParsedSubmission<unknown>, "reply">;

/** A service's refusal as the page's answer: a state as the form's message, invalid fields at their fields. */
function refusal(intent: Intent, submission: Parsed, outcome: Refusal) {
  switch (outcome.error) {
    case "notAllowed":
      throw new Response("Forbidden", { status: 403 });
    case "state":
      return refusedReply(intent, submission.reply({ formErrors: [refusedKey(outcome.reason)] }), 409);
    case "invalid": {
      const fieldErrors = Object.fromEntries(
        Object.entries(outcome.fieldErrors).map(([field, error]): [string, string[]] => [field, [errorKey(error!)]]),
      );
      return refusedReply(intent, submission.reply({ fieldErrors }), 400);
    }
  }
}

const SIGNED_BY_ALL: Record<Submission, MessageKey> = {
  submitted: "signing:flash.signedByAllSubmitted",
  failed: "signing:flash.signedByAllFailed",
  skipped: "signing:flash.signedByAll",
};

export async function action(args: Route.ActionArgs) {
  const { viewer, classId, studentUserId } = guard(args);
  const db = await getDb();
  const place = await signingPlace(db, viewer, classId, studentUserId);
  const formData = await readFormData(args.request);
  const intent = formData.get("intent") as Intent;
  if (typeof intent !== "string" || !INTENTS.includes(intent)) throw new Response("Bad Request", { status: 400 });
  if (!mayAttempt(intent, place.relation)) throw new Response("Forbidden", { status: 403 });

  const page = new URL(args.request.url).pathname;
  const done = (key: MessageKey, type: "success" | "info" | "error" = "success") =>
    redirectWithFlash(page, { type, key });
  const actor = { userId: viewer.userId, ip: clientAddress(args.request) };
  const submission = parseWithZod(formData, { schema: SIGNING_SCHEMAS[intent] });
  if (submission.status !== "success") return refusedReply(intent, submission.reply(), 400);
  const refused = (outcome: Refusal) => refusal(intent, submission, outcome);

  const value = submission.value;
  switch (value.intent) {
    case "saveMid": {
      const { intent: _, ...input } = value;
      const posted = {
        step: formData.get("step"),
        confirmed: formData.get("confirmed"),
        unsentAcknowledged: formData.get("unsentAcknowledged"),
      };
      const step = await midStep(db, place, actor, input, posted);
      if (step.next === "saved") return done("signing:flash.saved");
      if (step.next === "refused") return refused(step.refusal);
      const reply = { intent: "saveMid" as const, result: submission.reply() };
      if (step.next === "back") return data({ ...reply, confirmMid: null });
      const dateText = formatDay(input.midSemesterCompletedDate, getLanguage(args.context));
      const confirmMid = midConfirmView(input, step.check, dateText, step.unacknowledged);
      return data({ ...reply, confirmMid }, { status: step.status });
    }
    case "saveEnd": {
      const { intent: _, ...input } = value;
      const outcome = await saveEndPart(db, place, actor, input);
      return outcome.ok ? done("signing:flash.saved") : refused(outcome);
    }
    case "sign": {
      const outcome = await signForm(db, place, actor, {
        withoutSupervisor: value.signWithoutSupervisorConfirmed === "yes",
        unsentAcknowledged: value.unsentAcknowledged === "yes",
      });
      if (!outcome.ok) return refused(outcome);
      if (!outcome.allSigned) return done("signing:flash.signed");
      return done(SIGNED_BY_ALL[outcome.submission], outcome.submission === "failed" ? "info" : "success");
    }
    case "cancel": {
      const outcome = await cancelForm(db, place, actor);
      return outcome.ok ? done("signing:flash.cancelled") : refused(outcome);
    }
    case "submitResult": {
      const outcome = await resubmitResult(db, place, actor);
      if (!outcome.ok) return refused(outcome);
      return outcome.submission === "failed"
        ? done("signing:flash.resultFailed", "error")
        : done("signing:flash.resultSubmitted");
    }
  }
}

/** Mounted afresh on every navigation, with the action's answer it was mounted with (FreshPage). */
export default function SigningFormPage(props: Route.ComponentProps) {
  return <FreshPage page={SigningPage} props={props} />;
}

function SigningPage({ loaderData, actionData }: Route.ComponentProps) {
  const { checkTexts, ...page } = loaderData;
  if (checkTexts) provideNamespace("signingCheck", { [checkTexts.language]: checkTexts.texts });
  return <SigningForm {...page} answer={actionData} />;
}
