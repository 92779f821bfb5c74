import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { href } from "~/components/href";
import { AdminUserAccess } from "~/components/app/AdminUserAccess";
import { AdminUserDetails } from "~/components/app/AdminUserDetails";
import { AdminUserEditForm } from "~/components/app/AdminUserEditForm";
import { AdminUserPhoneForm } from "~/components/app/AdminUserPhoneForm";
import { ErasedBanner, ErasureSection } from "~/components/app/ErasureSection";
import { errorMessage, errorSummaryItems, firstError } from "~/components/form-errors";
import { AlertBanner, ErrorSummary, PageHeading } from "~/components/ui";
import { useValidatedForm } from "~/components/use-validated-form";
import { getUserForEdit, setUserActive, updatePhoneNumber, updateUser } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE, type RoleId } from "~/services/identity";
import { schema } from "./user.schema";
import { FreshPage } from "~/components/fresh-page";
import type { Route } from "./+types/user";
import { idParam, notFound } from "~/services/platform/ids";
import enAdminUsers from "~/locales/en/adminUsers.json";
import nbAdminUsers from "~/locales/nb/adminUsers.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("adminUsers", { nb: nbAdminUsers, en: enAdminUsers });

export const handle = { titleKey: "adminUsers:user.title" };

function saveRefused(result: SubmissionResult<string[]>, status: number) {
  return data({ intent: "save" as const, result }, { status });
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const userId = idParam(params.userId);
  const db = await getDb();
  const edit = await getUserForEdit(db, userId);
  if (!edit) notFound();
  await recordOpening(db, {
    viewerUserId: session.user.id,
    viewerRole: ROLE.Admin,
    studentUserId: userId,
    kind: "userProfile",
  });
  const isSelf = session.user.id === userId;
  const confirmDeactivate =
    new URL(request.url).searchParams.get("confirm") === "deactivate" && edit.user.isActive && !isSelf;
  // Erased on request or by the retention run: the account is kept, anonymised (docs/rules/records.md).
  return { ...edit, isSelf, confirmDeactivate, erased: edit.user.anonymisedAt !== null };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const userId = idParam(params.userId);
  const db = await getDb();
  const actor = { userId: session.user.id, ip: clientAddress(request) };
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const page = href("/admin/users/:userId", { userId: String(userId) });
  // A post about an erased person (a page left open, or made by hand) changes nothing, and says why.
  const refusedErased = () => redirectWithFlash(page, { type: "error", key: "adminUsers:user.errors.erased" });

  if (intent === "phone") {
    const typed = formData.get("phoneNumber");
    const text = typeof typed === "string" ? typed.slice(0, 200) : "";
    const result = await updatePhoneNumber(db, userId, text, actor);
    if (!result.ok) {
      if (result.error === "notFound") notFound();
      if (result.error === "erased") return refusedErased();
      return data(
        { intent: "phone" as const, error: "adminUsers:user.errors.phoneInvalid", typed: text },
        { status: 400 },
      );
    }
    const edited = await getUserForEdit(db, userId);
    return redirectWithFlash(page, {
      type: result.changed ? "success" : "info",
      key: !result.changed
        ? "adminUsers:user.phoneForm.unchanged"
        : result.vippsUnproved
          ? "adminUsers:user.phoneForm.saved"
          : "adminUsers:user.phoneForm.savedPlain",
      values: { name: edited?.user.displayName ?? "" },
    });
  }

  if (intent === "activate" || intent === "deactivate") {
    const result = await setUserActive(db, userId, intent === "activate", actor);
    if (!result.ok) {
      if (result.reason === "notFound") notFound();
      if (result.reason === "erased") return refusedErased();
      return data({ intent: "status" as const, error: "adminUsers:user.errors.deactivateSelf" }, { status: 400 });
    }
    const edited = await getUserForEdit(db, userId);
    return redirectWithFlash(page, {
      type: "success",
      key: intent === "activate" ? "adminUsers:user.activated" : "adminUsers:user.deactivated",
      values: { name: edited?.user.displayName ?? "" },
    });
  }

  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return saveRefused(submission.reply(), 400);
  const value = submission.value;
  const result = await updateUser(
    db,
    userId,
    {
      displayName: value.displayName,
      roles: value.roles.map(Number) as RoleId[],
      studentClassIds: (value.studentClasses ?? []).filter((id): id is number => id !== undefined),
      teacherClassIds: value.teacherClasses ?? [],
      supervisorClassIds: value.supervisorClasses ?? [],
    },
    actor,
  );
  if (result.ok) {
    return redirectWithFlash(page, {
      type: "success",
      key: result.changed ? "adminUsers:user.saved" : "adminUsers:user.unchanged",
      values: { name: value.displayName },
    });
  }
  const { error } = result;
  switch (error.kind) {
    case "notFound":
    case "unknownClass":
      return notFound();
    case "erased":
      return refusedErased();
    case "rolesRequired":
    case "ownAdminRole":
      return saveRefused(submission.reply({ fieldErrors: { roles: [`adminUsers:user.errors.${error.kind}`] } }), 400);
    case "twoClassesInSemester":
      return saveRefused(
        submission.reply({ fieldErrors: { studentClasses: ["adminUsers:user.errors.twoClassesInSemester"] } }),
        400,
      );
    case "studentHasAssessments":
      return saveRefused(
        submission.reply({
          fieldErrors: {
            studentClasses: [
              errorMessage("adminUsers:user.errors.studentHasAssessments", {
                classes: error.classes.map((c) => `${c.subjectCode} (${c.semesterName})`).join(", "),
              }),
            ],
          },
        }),
        409,
      );
  }
}

/** Mounted afresh on every navigation, with the action's answer it was mounted with (FreshPage). */
export default function User(props: Route.ComponentProps) {
  return <FreshPage page={UserPage} props={props} />;
}

function UserPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminUsers");
  const { user, semesters, isSelf, confirmDeactivate, erased } = loaderData;
  const save = actionData?.intent === "save" ? actionData : undefined;
  const statusError = actionData?.intent === "status" ? actionData.error : undefined;
  const phone = actionData?.intent === "phone" ? actionData : undefined;
  const [form, fields] = useValidatedForm(() => import("./user.schema").then((m) => m.schema), save?.result);

  const firstSemester = semesters[0];
  const studentFieldId = firstSemester ? `studentClasses-${firstSemester.semesterId}` : fields.roles.id;
  const studentMessage = firstError(t, fields.studentClasses.errors);
  const errorItems = [
    ...errorSummaryItems(t, [fields.displayName, fields.roles]),
    ...(studentMessage ? [{ fieldId: studentFieldId, message: studentMessage }] : []),
    ...(phone ? [{ fieldId: "phoneNumber", message: t(phone.error) }] : []),
    ...(statusError ? [{ fieldId: "access-heading", message: t(statusError) }] : []),
  ];

  return (
    <div className="app-content">
      <ErrorSummary errors={errorItems} />
      <p>
        <Link to="/admin/users">{t("user.back")}</Link>
      </p>
      <PageHeading caption={t("user.caption")}>{user.displayName}</PageHeading>
      {erased ? (
        <ErasedBanner />
      ) : user.isActive ? null : (
        <AlertBanner variant="warning">{t("user.inactiveBanner")}</AlertBanner>
      )}
      <AdminUserDetails user={user} erased={erased} />

      {/* An erased person is kept anonymised: nothing of them to edit, no access to give back. */}
      {erased ? null : (
        <>
          <h2>{t("user.editHeading")}</h2>
          <AdminUserEditForm
            userId={user.id}
            storedName={user.displayName}
            stored={loaderData}
            semesters={semesters}
            // After a refused save the form shows what was posted, else what is stored.
            typed={save?.result.initialValue as Record<string, unknown> | undefined}
            form={form}
            fields={fields}
          />
          <AdminUserPhoneForm userId={user.id} stored={user.phoneNumber} refused={phone} />
          <AdminUserAccess user={user} isSelf={isSelf} confirmDeactivate={confirmDeactivate} />
        </>
      )}
      <ErasureSection user={{ ...user, erased }} isSelf={isSelf} />
    </div>
  );
}
