import { getFormProps, type FormMetadata } from "@conform-to/react";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { href } from "~/components/href";
import { firstError } from "~/components/form-errors";
import { Button, CheckboxGroup, Details, FieldError, Fieldset, Hint, Select, TextField } from "~/components/ui";
import { listValue } from "~/components/use-validated-form";
import { DISPLAY_NAME_MAX_LENGTH } from "~/services/admin";
import type { SemesterClasses } from "~/services/admin/index.server";
import { ROLE, ROLE_NAMES, type RoleId } from "~/services/identity";

interface Field {
  name: string;
  id: string;
  errors?: string[];
}

/** What is stored of the user's roles and classes (getUserForEdit). */
export interface AdminUserStored {
  roles: RoleId[];
  studentClassIds: number[];
  teacherClassIds: number[];
  supervisorClassIds: number[];
}

const semesterLabel = (t: TFunction<"adminUsers">, s: SemesterClasses) =>
  s.status === "past" ? s.name : `${s.name} (${t(s.status === "current" ? "user.current" : "user.future")})`;
const classOptions = (s: SemesterClasses) =>
  s.classes.map((c) => ({ value: String(c.id), label: `${c.subjectCode} ${c.subjectName}` }));
const hasSelection = (list: SemesterClasses[], selected: string[]) =>
  list.some((s) => s.classes.some((c) => selected.includes(String(c.id))));

/**
 * The admin's form for a user's name, roles and classes. After a refused save it shows what was
 * posted (`typed`, the reply's values), else what is stored.
 */
export function AdminUserEditForm({
  userId,
  storedName,
  stored,
  semesters,
  typed,
  form,
  fields,
}: {
  userId: number;
  storedName: string;
  stored: AdminUserStored;
  semesters: SemesterClasses[];
  typed: Record<string, unknown> | undefined;
  form: FormMetadata;
  fields: { displayName: Field; roles: Field; studentClasses: Field };
}) {
  const { t } = useTranslation("adminUsers");
  const navigation = useNavigation();
  const displayName = typed ? (typeof typed.displayName === "string" ? typed.displayName : "") : storedName;
  const roles = typed ? listValue(typed.roles) : stored.roles.map(String);
  const studentSelected = typed ? listValue(typed.studentClasses) : stored.studentClassIds.map(String);
  const teacherSelected = typed ? listValue(typed.teacherClasses) : stored.teacherClassIds.map(String);
  const supervisorSelected = typed ? listValue(typed.supervisorClasses) : stored.supervisorClassIds.map(String);

  // A role's classes show once the user holds it, and stay while a refused save is corrected.
  const withClasses = (roleId: RoleId) =>
    semesters.length > 0 && (roles.includes(String(roleId)) || stored.roles.includes(roleId));

  return (
    <Form
      method="post"
      action={href("/admin/users/:userId", { userId: String(userId) })}
      {...getFormProps(form)}
      noValidate
    >
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
        options={Object.values(ROLE).map((id) => ({
          value: String(id),
          label: t(`common:roles.${ROLE_NAMES[id]}.name`),
        }))}
        defaultValue={roles}
        error={firstError(t, fields.roles.errors)}
      />

      {semesters.length === 0 ? <p>{t("user.noSemesters")}</p> : null}

      {withClasses(ROLE.Student) ? (
        <StudentClasses
          semesters={semesters}
          selected={studentSelected}
          message={firstError(t, fields.studentClasses.errors)}
        />
      ) : null}

      {withClasses(ROLE.Teacher) ? (
        <Fieldset legend={t("user.teacherClasses")} describedBy="teacher-classes-hint">
          <Hint id="teacher-classes-hint">{t("user.teacherClassesHint")}</Hint>
          <ClassCheckboxes name="teacherClasses" semesters={semesters} selected={teacherSelected} />
        </Fieldset>
      ) : null}

      {withClasses(ROLE.Supervisor) ? (
        <Fieldset legend={t("user.supervisorClasses")} describedBy="supervisor-classes-hint">
          <Hint id="supervisor-classes-hint">{t("user.supervisorClassesHint")}</Hint>
          <ClassCheckboxes name="supervisorClasses" semesters={semesters} selected={supervisorSelected} />
        </Fieldset>
      ) : null}

      <Button disabled={navigation.state === "submitting"}>{t("user.save")}</Button>
    </Form>
  );
}

/** Current and coming semesters open; earlier ones folded away unless the user has a class there. */
function BySemester({
  semesters,
  selected,
  render,
}: {
  semesters: SemesterClasses[];
  selected: string[];
  render: (s: SemesterClasses) => ReactNode;
}) {
  const { t } = useTranslation("adminUsers");
  const upcoming = semesters.filter((s) => s.status !== "past");
  const earlier = semesters.filter((s) => s.status === "past");
  return (
    <>
      {upcoming.map(render)}
      {earlier.length > 0 ? (
        <Details summary={t("user.earlierSemesters")} open={hasSelection(earlier, selected)}>
          {earlier.map(render)}
        </Details>
      ) : null}
    </>
  );
}

/** A student's class: one select per semester (a student is in at most one class a semester). */
function StudentClasses({
  semesters,
  selected,
  message,
}: {
  semesters: SemesterClasses[];
  selected: string[];
  message: string | undefined;
}) {
  const { t } = useTranslation("adminUsers");
  return (
    <div className={message ? "ui-form-group ui-form-group--error" : "ui-form-group"}>
      <Fieldset
        legend={t("user.studentClasses")}
        describedBy={message ? "student-classes-hint student-classes-error" : "student-classes-hint"}
      >
        <Hint id="student-classes-hint">{t("user.studentClassesHint")}</Hint>
        {message ? <FieldError id="student-classes-error" message={message} /> : null}
        <BySemester
          semesters={semesters}
          selected={selected}
          render={(s) => (
            <Select
              key={s.semesterId}
              label={t("user.classInSemester", { semester: semesterLabel(t, s) })}
              // Each select its own name in the list (studentClasses[0], [1] …): the server reads
              // the same list as from one repeated name, and no two controls share a name.
              name={`studentClasses[${semesters.indexOf(s)}]`}
              id={`studentClasses-${s.semesterId}`}
              placeholder={t("user.noClass")}
              options={classOptions(s)}
              defaultValue={s.classes.find((c) => selected.includes(String(c.id)))?.id ?? ""}
            />
          )}
        />
      </Fieldset>
    </div>
  );
}

/** A teacher's or supervisor's classes: a group of checkboxes per semester. */
function ClassCheckboxes({
  name,
  semesters,
  selected,
}: {
  name: "teacherClasses" | "supervisorClasses";
  semesters: SemesterClasses[];
  selected: string[];
}) {
  const { t } = useTranslation("adminUsers");
  return (
    <BySemester
      semesters={semesters}
      selected={selected}
      render={(s) => (
        <CheckboxGroup
          key={s.semesterId}
          name={name}
          id={`${name}-${s.semesterId}`}
          legend={semesterLabel(t, s)}
          legendSize="s"
          options={classOptions(s)}
          defaultValue={selected}
        />
      )}
    />
  );
}
