import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { href } from "~/components/href";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { Button, ButtonGroup, ErrorSummary, LinkButton, Table, Tag, TextField, VisuallyHidden } from "~/components/ui";
import { useValidatedForm } from "~/components/use-validated-form";
import { createSubject, findSubject, listSubjects, updateSubject } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash, type Flash } from "~/services/platform/flash.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { SUBJECT_CODE_MAX, SUBJECT_NAME_MAX } from "~/services/admin";
import { schema } from "./subjects.schema";
import { FreshPage } from "~/components/fresh-page";
import type { Route } from "./+types/subjects";
import { notFound } from "~/services/platform/ids";
import enAdminUsers from "~/locales/en/adminUsers.json";
import nbAdminUsers from "~/locales/nb/adminUsers.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("adminUsers", { nb: nbAdminUsers, en: enAdminUsers });

export const handle = { titleKey: "adminUsers:subjects.title" };

/** `?edit=<id>` turns the form at the top into the edit form of that subject. */
function editedId(url: string): number | null {
  const raw = new URL(url).searchParams.get("edit");
  if (raw === null) return null;
  if (!/^\d{1,9}$/.test(raw)) notFound();
  return Number(raw);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const db = await getDb();
  const editId = editedId(request.url);
  const editing = editId === null ? null : await findSubject(db, editId);
  if (editId !== null && !editing) notFound();
  return { subjects: await listSubjects(db), editing };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const submission = parseWithZod(await readFormData(request), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { intent, id, ...input } = submission.value;
  const db = await getDb();
  const actor = { userId: session.user.id, ip: clientAddress(request) };
  if (intent === "update" && id === undefined) notFound();
  const result =
    intent === "update" ? await updateSubject(db, id!, input, actor) : await createSubject(db, input, actor);
  if (!result.ok) {
    if (result.reason === "notFound") notFound();
    return data(submission.reply({ fieldErrors: { subjectCode: ["adminUsers:subjects.errors.duplicate"] } }), {
      status: 409,
    });
  }
  const flash: Flash = {
    type: "success",
    key: intent === "update" ? "adminUsers:subjects.updated" : "adminUsers:subjects.created",
    values: { code: result.subject.subjectCode },
  };
  return redirectWithFlash("/admin/subjects", flash);
}

/** Mounted afresh on every navigation (after a save, "Endre" or "Avbryt"), with its action's answer (FreshPage). */
export default function Subjects(props: Route.ComponentProps) {
  return <FreshPage page={SubjectsPage} props={props} />;
}

function SubjectsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminUsers");
  const navigation = useNavigation();
  const { subjects, editing } = loaderData;
  const [form, fields] = useValidatedForm(() => import("./subjects.schema").then((m) => m.schema), actionData);
  const typedCode = fields.subjectCode.initialValue;
  const typedName = fields.name.initialValue;
  return (
    <div className="app-content">
      <ErrorSummary errors={errorSummaryItems(t, [fields.subjectCode, fields.name])} />
      <h1>{t("subjects.title")}</h1>
      <p className="app-lead">{t("subjects.intro")}</p>

      <section aria-labelledby="subject-form-heading">
        <h2 id="subject-form-heading">
          {editing ? t("subjects.editHeading", { code: editing.subjectCode }) : t("subjects.createHeading")}
        </h2>
        <Form
          key={editing?.id ?? "new"}
          method="post"
          action={editing ? `${href("/admin/subjects")}?edit=${editing.id}` : href("/admin/subjects")}
          {...getFormProps(form)}
          noValidate
        >
          <input type="hidden" name="intent" value={editing ? "update" : "create"} />
          {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
          <TextField
            label={t("subjects.code")}
            hint={t("subjects.codeHint")}
            name={fields.subjectCode.name}
            id={fields.subjectCode.id}
            width="10"
            autoComplete="off"
            spellCheck={false}
            required
            maxLength={SUBJECT_CODE_MAX}
            defaultValue={typeof typedCode === "string" ? typedCode : (editing?.subjectCode ?? "")}
            error={firstError(t, fields.subjectCode.errors)}
          />
          <TextField
            label={t("subjects.name")}
            hint={t("subjects.nameHint")}
            name={fields.name.name}
            id={fields.name.id}
            autoComplete="off"
            required
            maxLength={SUBJECT_NAME_MAX}
            defaultValue={typeof typedName === "string" ? typedName : (editing?.name ?? "")}
            error={firstError(t, fields.name.errors)}
          />
          <ButtonGroup>
            <Button disabled={navigation.state === "submitting"}>
              {editing ? t("subjects.save") : t("subjects.create")}
            </Button>
            {editing ? (
              <LinkButton variant="secondary" to="/admin/subjects">
                {t("subjects.cancel")}
              </LinkButton>
            ) : null}
          </ButtonGroup>
        </Form>
      </section>

      <h2>{t("subjects.listHeading")}</h2>
      {subjects.length === 0 ? (
        <p>{t("subjects.none")}</p>
      ) : (
        <Table
          caption={t("subjects.listHeading")}
          captionHidden
          rowHeaders
          columns={[
            { header: t("subjects.codeColumn") },
            { header: t("subjects.nameColumn") },
            { header: t("subjects.actionsColumn") },
          ]}
          rows={subjects.map((subject) => ({
            key: String(subject.id),
            cells: [
              subject.subjectCode,
              subject.name,
              editing?.id === subject.id ? (
                <Tag variant="info">{t("subjects.editing")}</Tag>
              ) : (
                <Link to={`${href("/admin/subjects")}?edit=${subject.id}`}>
                  {t("subjects.edit")}
                  <VisuallyHidden> {subject.subjectCode}</VisuallyHidden>
                </Link>
              ),
            ],
          }))}
        />
      )}
    </div>
  );
}
