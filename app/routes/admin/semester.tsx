import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigate, useNavigation } from "react-router";
import { href } from "~/components/href";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { listValue, useValidatedForm } from "~/components/use-validated-form";
import {
  Button,
  ButtonGroup,
  CheckboxGroup,
  ErrorSummary,
  LinkButton,
  PageHeading,
  Table,
  Tag,
  type TagVariant,
} from "~/components/ui";
import { Dialog } from "~/components/ui/Dialog";
import { addSubjectsToSemester, findSemester, semesterPage } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash, type Flash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { formatDay, type SemesterStatus } from "~/services/platform/semesters";
import { schema } from "./semester.schema";
import type { Route } from "./+types/semester";
import { idParam, notFound } from "~/services/platform/ids";
import enAdminSemesters from "~/locales/en/adminSemesters.json";
import nbAdminSemesters from "~/locales/nb/adminSemesters.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("adminSemesters", { nb: nbAdminSemesters, en: enAdminSemesters });

export const handle = { titleKey: "adminSemesters:semester.title" };

/** The add-subjects dialog is part of this page's URL: a modal has an address of its own, so it can be linked to and works without JS. */
const ADD_PARAM = "add";

const STATUS_TAG: Record<SemesterStatus, TagVariant> = { future: "info", current: "success", past: "neutral" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const semesterId = idParam(params.semesterId);
  const page = (await semesterPage(await getDb(), semesterId, new Date())) ?? notFound();
  const language = getLanguage(context);
  return {
    ...page,
    semester: {
      ...page.semester,
      start: formatDay(page.semester.startDate, language),
      end: formatDay(page.semester.endDate, language),
    },
    addOpen: new URL(request.url).searchParams.get(ADD_PARAM) === "subjects",
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const semesterId = idParam(params.semesterId);
  const db = await getDb();
  if (!(await findSemester(db, semesterId))) notFound();
  const submission = parseWithZod(await readFormData(request), { schema });
  if (submission.status !== "success") {
    return data(submission.reply(), { status: 400 });
  }
  const result = await addSubjectsToSemester(db, {
    semesterId,
    subjectIds: submission.value.subjectIds,
    actorUserId: session.user.id,
    ip: clientAddress(request),
  });
  if (!result.ok) notFound();
  const flash: Flash =
    result.added.length > 0
      ? {
          type: "success",
          key: "adminSemesters:semester.added",
          values: { count: result.added.length, codes: result.added.map((c) => c.subjectCode).join(", ") },
        }
      : { type: "info", key: "adminSemesters:semester.nothingAdded" };
  return redirectWithFlash(href("/admin/semesters/:semesterId", { semesterId: String(semesterId) }), flash);
}

export default function Semester({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminSemesters");
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { semester, classes, availableSubjects } = loaderData;
  const [form, fields] = useValidatedForm(() => import("./semester.schema").then((m) => m.schema), actionData);
  const here = href("/admin/semesters/:semesterId", { semesterId: String(semester.id) });
  const addOpen = availableSubjects.length > 0 && (loaderData.addOpen || actionData != null);

  return (
    <div className="app-content">
      <p>
        <Link to="/admin/semesters">{t("semester.back")}</Link>
      </p>
      <PageHeading caption={t("semester.caption")}>{semester.name}</PageHeading>
      <p className="app-meta">
        {t("list.dateRange", { start: semester.start, end: semester.end })}{" "}
        <Tag variant={STATUS_TAG[semester.status]}>{t(`semester.status.${semester.status}`)}</Tag>
      </p>

      <h2>{t("semester.classesHeading")}</h2>
      {classes.length === 0 ? (
        <p>{t("semester.noClasses")}</p>
      ) : (
        <Table
          caption={t("semester.classesCaption", { name: semester.name })}
          captionHidden
          rowHeaders
          columns={[
            { header: t("semester.subject") },
            { header: t("semester.teachers"), numeric: true },
            { header: t("semester.students"), numeric: true },
          ]}
          rows={classes.map((c) => ({
            key: String(c.classId),
            cells: [
              <Link to={href("/admin/class/:classId", { classId: String(c.classId) })}>
                {c.subjectCode} {c.subjectName}
              </Link>,
              c.teacherCount,
              c.studentCount,
            ],
          }))}
        />
      )}
      {availableSubjects.length > 0 ? (
        <p>
          <LinkButton to={`?${ADD_PARAM}=subjects`} variant="secondary" preventScrollReset>
            {t("semester.addSubjects")}
          </LinkButton>
        </p>
      ) : (
        <p>{t("semester.allSubjectsAdded")}</p>
      )}

      {addOpen ? (
        <Dialog
          title={t("semester.dialogTitle", { name: semester.name })}
          closeHref={here}
          onClose={() => void navigate(here, { preventScrollReset: true, replace: true })}
        >
          <ErrorSummary
            errors={errorSummaryItems(t, [fields.subjectIds], { errors: form.errors, fieldId: fields.subjectIds.id })}
          />
          <Form method="post" action={here} {...getFormProps(form)}>
            <CheckboxGroup
              name={fields.subjectIds.name}
              id={fields.subjectIds.id}
              legend={t("semester.subjectsLegend")}
              hint={t("semester.subjectsHint")}
              error={firstError(t, fields.subjectIds.errors)}
              defaultValue={[...listValue(fields.subjectIds.initialValue), ...classes.map((c) => String(c.subjectId))]}
              options={[
                ...availableSubjects.map((s) => ({ value: String(s.id), label: `${s.subjectCode} ${s.name}` })),
                ...classes.map((c) => ({
                  value: String(c.subjectId),
                  label: `${c.subjectCode} ${c.subjectName}`,
                  hint: t("semester.alreadyAdded"),
                  disabled: true,
                })),
              ]}
            />
            <ButtonGroup>
              <Button disabled={navigation.state === "submitting"}>{t("semester.submit")}</Button>
              <Link to={here} preventScrollReset>
                {t("semester.cancel")}
              </Link>
            </ButtonGroup>
          </Form>
        </Dialog>
      ) : null}

      <h2>{t("report.heading")}</h2>
      <p>{t("report.intro")}</p>
      <p>
        {/* A plain link, not a client-side navigation: the browser downloads the file itself. */}
        <a
          className="ui-button ui-button--secondary"
          href={href("/api/periods/:semesterId/students-csv", { semesterId: String(semester.id) })}
        >
          {t("report.download", { name: semester.name })}
        </a>
      </p>
    </div>
  );
}
