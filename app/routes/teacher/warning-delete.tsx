import { useTranslation } from "react-i18next";
import { Form, redirect, useNavigation } from "react-router";
import { href } from "~/components/href";
import { WarningContent, WarningFacts } from "~/components/app/Warning";
import { Button, ButtonGroup, LinkButton, PageHeading } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import { requireStudentAccess, displayNameOf } from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { postedWarningId } from "~/services/warnings";
import { deleteWarning, warningFor, warningForView } from "~/services/warnings/index.server";
import type { Route } from "./+types/warning-delete";

export const handle = { titleKey: "warnings:delete.title" };

/**
 * Deleting a warning asks first, on a page of its own, so the step works without JavaScript
 * (every step of the app works without it). It names the warning it shows (`warningId`), and deletes only that one.
 */
async function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireRole(args.request, args.context, ROLE.Teacher);
  const classId = idParam(args.params.classId);
  const studentUserId = idParam(args.params.studentUserId);
  const db = await getDb();
  const access = await requireStudentAccess(
    db,
    { userId: session.user.id, role: ROLE.Teacher },
    classId,
    studentUserId,
  );
  const studentPage = href("/teacher/class/:classId/student/:userId", {
    classId: String(classId),
    userId: String(studentUserId),
  });
  return { session, db, access, studentUserId, studentPage, warningPage: `${studentPage}/warning` };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, access, studentUserId, warningPage } = await guard(args);
  const warning = await warningFor(db, access);
  // Nothing to delete (any more): the warning page says so and offers to write one.
  if (!warning) throw redirect(warningPage);
  return {
    studentName: await displayNameOf(db, studentUserId),
    warning: warningForView(warning, getLanguage(args.context)),
    warningPage,
  };
}

export async function action(args: Route.ActionArgs) {
  const { session, db, access, studentUserId, studentPage, warningPage } = await guard(args);
  const seenId = postedWarningId((await readFormData(args.request)).get("warningId"));
  if (seenId === undefined || seenId === null) throw new Response("Bad Request", { status: 400 });
  const outcome = await deleteWarning(db, {
    access,
    actorUserId: session.user.id,
    ip: clientAddress(args.request),
    seenId,
  });
  if (!outcome.ok) {
    if (outcome.error === "notAllowed") notFound();
    return redirectWithFlash(warningPage, { type: "error", key: "warnings:delete.changed" });
  }
  if (outcome.deleted === null) return redirectWithFlash(studentPage, { type: "info", key: "warnings:delete.nothing" });
  const name = await displayNameOf(db, studentUserId);
  const key = outcome.deleted === "draft" ? "warnings:delete.draftDeleted" : "warnings:delete.deleted";
  return redirectWithFlash(studentPage, { type: "success", key, values: { name } });
}

export default function DeleteWarning({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("warnings");
  const busy = useNavigation().state === "submitting";
  const { studentName, warning, warningPage } = loaderData;
  const isDraft = warning.state === "draft";
  return (
    <div className="app-content">
      <PageHeading caption={`${studentName} · ${t("heading")}`}>
        {isDraft ? t("delete.headingDraft") : t("delete.headingGiven")}
      </PageHeading>
      <p>{t(isDraft ? "delete.draft" : "delete.given", { name: studentName })}</p>
      <Form method="post">
        <input type="hidden" name="warningId" value={warning.id} />
        <ButtonGroup>
          <Button variant="warning" disabled={busy}>
            {t("delete.confirm")}
          </Button>
          <LinkButton to={warningPage} variant="secondary">
            {t("delete.cancel")}
          </LinkButton>
        </ButtonGroup>
      </Form>
      <WarningFacts warning={warning} />
      <WarningContent text={warning.text} />
    </div>
  );
}
