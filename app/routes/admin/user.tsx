import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { errorMessage, errorSummaryItems, firstError } from "~/components/form-errors";
import {
  AlertBanner,
  Button,
  ButtonGroup,
  CheckboxGroup,
  Details,
  ErrorSummary,
  FieldError,
  Fieldset,
  Hint,
  LinkButton,
  PageHeading,
  Select,
  SummaryList,
  Tag,
  TextField,
} from "~/components/ui";
import { listValue, useValidatedForm } from "~/components/use-validated-form";
import {
  getUserForEdit,
  setUserActive,
  updatePhoneNumber,
  updateUser,
  type SemesterClasses,
} from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE, ROLE_NAMES, type RoleId } from "~/services/identity";
import { DISPLAY_NAME_MAX_LENGTH } from "~/services/admin";
import { schema } from "./user.schema";
import { FreshPage } from "~/components/fresh-page";
import type { Route } from "./+types/user";
import { idParam, notFound } from "~/services/platform/ids";
import enAdminUsers from "~/locales/en/adminUsers.json";
import nbAdminUsers from "~/locales/nb/adminUsers.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("adminUsers", { nb: nbAdminUsers, en: enAdminUsers });

export const handle = { titleKey: "adminUsers:user.title" };

function userIdOf(params: { userId: string }): number {
  return idParam(params.userId);
}

function saveRefused(result: SubmissionResult<string[]>, status: number) {
  return data({ intent: "save" as const, result }, { status });
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const userId = userIdOf(params);
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
  return { ...edit, isSelf, confirmDeactivate };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const userId = userIdOf(params);
  const db = await getDb();
  const actor = { userId: session.user.id, ip: clientAddress(request) };
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const page = `/admin/users/${userId}`;

  if (intent === "phone") {
    const typed = formData.get("phoneNumber");
    const text = typeof typed === "string" ? typed.slice(0, 200) : "";
    const result = await updatePhoneNumber(db, userId, text, actor);
    if (!result.ok) {
      if (result.error === "notFound") notFound();
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
      advisorClassIds: value.advisorClasses ?? [],
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
                classes: error.classes.map((c) => `${c.subjectCode} (${c.periodName})`).join(", "),
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
  const navigation = useNavigation();
  const { user, semesters, isSelf, confirmDeactivate } = loaderData;
  const save = actionData?.intent === "save" ? actionData : undefined;
  const statusError = actionData?.intent === "status" ? actionData.error : undefined;
  const phone = actionData?.intent === "phone" ? actionData : undefined;
  const [form, fields] = useValidatedForm(() => import("./user.schema").then((m) => m.schema), save?.result);

  // After a refused save the page shows what was posted, else what is stored.
  const typed = save?.result.initialValue as Record<string, unknown> | undefined;
  const displayName = typed ? (typeof typed.displayName === "string" ? typed.displayName : "") : user.displayName;
  const roles = typed ? listValue(typed.roles) : loaderData.roles.map(String);
  const studentSelected = typed ? listValue(typed.studentClasses) : loaderData.studentClassIds.map(String);
  const teacherSelected = typed ? listValue(typed.teacherClasses) : loaderData.teacherClassIds.map(String);
  const advisorSelected = typed ? listValue(typed.advisorClasses) : loaderData.advisorClassIds.map(String);

  // A role's classes show once the user holds it, and stay while a refused save is corrected.
  const withClasses = (roleId: RoleId) =>
    semesters.length > 0 && (roles.includes(String(roleId)) || loaderData.roles.includes(roleId));

  const upcoming = semesters.filter((s) => s.status !== "past");
  const earlier = semesters.filter((s) => s.status === "past");
  const firstSemester = semesters[0];
  const studentFieldId = firstSemester ? `studentClasses-${firstSemester.periodId}` : fields.roles.id;
  const studentMessage = firstError(t, fields.studentClasses.errors);

  const roleName = (roleId: RoleId) => t(`common:roles.${ROLE_NAMES[roleId]}.name`);
  const semesterLabel = (s: SemesterClasses) =>
    s.status === "past" ? s.name : `${s.name} (${t(s.status === "current" ? "user.current" : "user.future")})`;
  const classOptions = (s: SemesterClasses) =>
    s.classes.map((c) => ({ value: String(c.id), label: `${c.subjectCode} ${c.subjectName}` }));
  const hasSelection = (list: SemesterClasses[], selected: string[]) =>
    list.some((s) => s.classes.some((c) => selected.includes(String(c.id))));

  /** Current and coming semesters open; earlier ones folded away unless the user has a class there. */
  const bySemester = (selected: string[], render: (s: SemesterClasses) => ReactNode) => (
    <>
      {upcoming.map(render)}
      {earlier.length > 0 ? (
        <Details summary={t("user.earlierSemesters")} open={hasSelection(earlier, selected)}>
          {earlier.map(render)}
        </Details>
      ) : null}
    </>
  );

  const checkboxesPerSemester = (name: "teacherClasses" | "advisorClasses", selected: string[]) =>
    bySemester(selected, (s) => (
      <CheckboxGroup
        key={s.periodId}
        name={name}
        id={`${name}-${s.periodId}`}
        legend={semesterLabel(s)}
        legendSize="s"
        options={classOptions(s)}
        defaultValue={selected}
      />
    ));

  const errorItems = [
    ...errorSummaryItems(t, [fields.displayName, fields.roles]),
    ...(studentMessage ? [{ fieldId: studentFieldId, message: studentMessage }] : []),
    ...(phone ? [{ fieldId: "phoneNumber", message: t(phone.error as never) }] : []),
    ...(statusError ? [{ fieldId: "access-heading", message: t(statusError as never) }] : []),
  ];

  return (
    <div className="app-content">
      <ErrorSummary errors={errorItems} />
      <p>
        <Link to="/admin/users">{t("user.back")}</Link>
      </p>
      <PageHeading caption={t("user.caption")}>{user.displayName}</PageHeading>
      {user.isActive ? null : <AlertBanner variant="warning">{t("user.inactiveBanner")}</AlertBanner>}

      <SummaryList
        rows={[
          {
            key: t("user.email"),
            value: (
              <>
                {user.email}
                <Hint id="email-read-only">{t("user.emailReadOnly")}</Hint>
              </>
            ),
          },
          { key: t("user.phone"), value: user.phoneNumber ?? t("user.noPhone") },
          {
            key: t("user.status"),
            value: user.isActive ? t("user.active") : <Tag>{t("user.inactive")}</Tag>,
          },
        ]}
      />

      <h2>{t("user.editHeading")}</h2>
      <Form method="post" action={`/admin/users/${user.id}`} {...getFormProps(form)} noValidate>
        <input type="hidden" name="intent" value="save" />
        <TextField
          label={t("user.name")}
          name={fields.displayName.name}
          id={fields.displayName.id}
          width="30"
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={DISPLAY_NAME_MAX_LENGTH}
          defaultValue={displayName}
          error={firstError(t, fields.displayName.errors)}
        />
        <CheckboxGroup
          legend={t("user.roles")}
          hint={t("user.rolesHint")}
          name={fields.roles.name}
          id={fields.roles.id}
          options={Object.values(ROLE).map((id) => ({ value: String(id), label: roleName(id) }))}
          defaultValue={roles}
          error={firstError(t, fields.roles.errors)}
        />

        {semesters.length === 0 ? <p>{t("user.noSemesters")}</p> : null}

        {withClasses(ROLE.Student) ? (
          <div className={studentMessage ? "ui-form-group ui-form-group--error" : "ui-form-group"}>
            <Fieldset
              legend={t("user.studentClasses")}
              describedBy={studentMessage ? "student-classes-hint student-classes-error" : "student-classes-hint"}
            >
              <Hint id="student-classes-hint">{t("user.studentClassesHint")}</Hint>
              {studentMessage ? <FieldError id="student-classes-error" message={studentMessage} /> : null}
              {bySemester(studentSelected, (s) => (
                <Select
                  key={s.periodId}
                  label={t("user.classInSemester", { semester: semesterLabel(s) })}
                  // Each select its own name in the list (studentClasses[0], [1] …): the server reads
                  // the same list as from one repeated name, and no two controls share a name.
                  name={`studentClasses[${semesters.indexOf(s)}]`}
                  id={`studentClasses-${s.periodId}`}
                  placeholder={t("user.noClass")}
                  options={classOptions(s)}
                  defaultValue={s.classes.find((c) => studentSelected.includes(String(c.id)))?.id ?? ""}
                />
              ))}
            </Fieldset>
          </div>
        ) : null}

        {withClasses(ROLE.Teacher) ? (
          <Fieldset legend={t("user.teacherClasses")} describedBy="teacher-classes-hint">
            <Hint id="teacher-classes-hint">{t("user.teacherClassesHint")}</Hint>
            {checkboxesPerSemester("teacherClasses", teacherSelected)}
          </Fieldset>
        ) : null}

        {withClasses(ROLE.Advisor) ? (
          <Fieldset legend={t("user.advisorClasses")} describedBy="advisor-classes-hint">
            <Hint id="advisor-classes-hint">{t("user.advisorClassesHint")}</Hint>
            {checkboxesPerSemester("advisorClasses", advisorSelected)}
          </Fieldset>
        ) : null}

        <Button disabled={navigation.state === "submitting"}>{t("user.save")}</Button>
      </Form>

      <h2 id="phone-heading">{t("user.phoneForm.heading")}</h2>
      <Form method="post" action={`/admin/users/${user.id}`} noValidate>
        <input type="hidden" name="intent" value="phone" />
        <TextField
          label={t("user.phoneForm.label")}
          hint={t("user.phoneForm.hint")}
          name="phoneNumber"
          id="phoneNumber"
          type="tel"
          width="20"
          autoComplete="off"
          maxLength={32}
          defaultValue={phone ? phone.typed : (user.phoneNumber ?? "")}
          error={phone ? t(phone.error as never) : undefined}
        />
        <Button variant="secondary" disabled={navigation.state === "submitting"}>
          {t("user.phoneForm.submit")}
        </Button>
      </Form>

      <section aria-labelledby="access-heading">
        <h2 id="access-heading" tabIndex={-1}>
          {t("user.accessHeading")}
        </h2>
        {!user.isActive ? (
          <Form method="post" action={`/admin/users/${user.id}`}>
            <p>{t("user.activateText")}</p>
            <input type="hidden" name="intent" value="activate" />
            <Button>{t("user.activate")}</Button>
          </Form>
        ) : isSelf ? (
          <p>{t("user.cannotDeactivateSelf")}</p>
        ) : confirmDeactivate ? (
          <AlertBanner
            variant="warning"
            heading={t("user.confirmHeading", { name: user.displayName })}
            headingLevel={3}
            className="admin-user-confirm"
          >
            <p>{t("user.confirmText")}</p>
            <Form method="post" action={`/admin/users/${user.id}`}>
              <input type="hidden" name="intent" value="deactivate" />
              <ButtonGroup>
                <Button variant="warning">{t("user.confirmDeactivate")}</Button>
                <LinkButton variant="secondary" to={`/admin/users/${user.id}`}>
                  {t("user.cancel")}
                </LinkButton>
              </ButtonGroup>
            </Form>
          </AlertBanner>
        ) : (
          <>
            <p>{t("user.deactivateText")}</p>
            <LinkButton variant="warning" to={`/admin/users/${user.id}?confirm=deactivate#access-heading`}>
              {t("user.deactivate")}
            </LinkButton>
          </>
        )}
      </section>
    </div>
  );
}
