import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { href } from "~/components/href";
import { TeacherStudentSearch } from "~/components/app/TeacherStudentSearch";
import { Button, CheckboxGroup, ErrorSummary, PageHeading } from "~/components/ui";
import { Pagination } from "~/components/ui/Pagination";
import { errorMessage, errorSummaryItems, firstError } from "~/components/form-errors";
import { listValue, useValidatedForm } from "~/components/use-validated-form";
import { classHeader } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { idParam, notFound, parseId } from "~/services/platform/ids";
import { STUDENT_SEARCH_MAX_LENGTH } from "~/services/placements";
import {
  requireClassTeacher,
  STUDENT_PICKER_PAGE_SIZE,
  studentPicker,
  takeStudentsAsTeacher,
} from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { MAX_LISTED, schema } from "./add-students.schema";
import type { Route } from "./+types/add-students";

export const handle = { titleKey: "teacher:addStudents.title" };

/** The id of the first checkbox; the error summary links here. */
const FIELD_ID = "students";

function readQuery(url: URL): { q: string; offset: number } {
  const offset = Number(url.searchParams.get("offset"));
  return {
    q: (url.searchParams.get("q") ?? "").trim().slice(0, STUDENT_SEARCH_MAX_LENGTH),
    offset:
      Number.isInteger(offset) && offset >= STUDENT_PICKER_PAGE_SIZE
        ? Math.min(offset, MAX_LISTED - STUDENT_PICKER_PAGE_SIZE)
        : 0,
  };
}

function pageUrl(classId: number, q: string, offset: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (offset >= STUDENT_PICKER_PAGE_SIZE) params.set("offset", String(offset));
  const query = params.toString();
  return `${href("/teacher/class/:classId/students/add", { classId: String(classId) })}${query ? `?${query}` : ""}`;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classId = idParam(params.classId);
  const db = await getDb();
  await requireClassTeacher(db, { userId: session.user.id, role: ROLE.Teacher }, classId);
  const header = await classHeader(db, classId);
  if (!header) notFound();
  const { q, offset } = readQuery(new URL(request.url));
  const { rows, total } = await studentPicker(db, { classId, search: q, limit: offset + STUDENT_PICKER_PAGE_SIZE });
  const shown = rows.length;
  return {
    classId,
    subject: `${header.subjectCode} ${header.subjectName}`,
    semesterName: header.semesterName,
    q,
    total,
    students: rows.map((r) => ({
      userId: r.userId,
      displayName: r.displayName,
      email: r.email,
      teacherName: r.teacherName,
      mine: r.teacherUserId === session.user.id,
    })),
    // The fragment takes the reader to the first newly shown student, with or without JavaScript.
    moreHref: shown < total && shown < MAX_LISTED ? `${pageUrl(classId, q, shown)}#${FIELD_ID}-${shown + 1}` : null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classId = idParam(params.classId);
  const db = await getDb();
  await requireClassTeacher(db, { userId: session.user.id, role: ROLE.Teacher }, classId);
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const ids = submission.value.studentIds.map(parseId);
  const refuse = (message: string) =>
    data(submission.reply({ fieldErrors: { studentIds: [message] } }), { status: 400 });
  if (ids.some((id) => id === null)) return refuse("teacher:errors.unknownStudent");

  const outcome = await takeStudentsAsTeacher(db, {
    classId,
    teacherUserId: session.user.id,
    studentUserIds: ids as number[],
    ip: clientAddress(request),
  });
  if (!outcome.ok) {
    if (outcome.error === "notMember") notFound();
    return refuse(
      "names" in outcome
        ? errorMessage(`teacher:errors.${outcome.error}`, { names: outcome.names.join(", ") })
        : `teacher:errors.${outcome.error}`,
    );
  }
  const names = (list: { displayName: string }[]) => list.map((s) => s.displayName).join(", ");
  const { assigned, taken } = outcome;
  if (assigned.length === 0 && taken.length > 0) {
    return refuse(errorMessage("teacher:errors.allTaken", { names: names(taken) }));
  }
  const classPage = href("/teacher/class/:classId", { classId: String(classId) });
  if (assigned.length === 0)
    return redirectWithFlash(classPage, { type: "info", key: "teacher:addStudents.nothingNew" });
  return redirectWithFlash(
    classPage,
    taken.length > 0
      ? {
          type: "success",
          key: "teacher:addStudents.addedSomeTaken",
          values: { added: names(assigned), taken: names(taken) },
        }
      : {
          type: "success",
          key: "teacher:addStudents.added",
          values: { count: assigned.length, names: names(assigned) },
        },
  );
}

export default function AddStudents({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("teacher");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { classId, subject, semesterName, q, total, students, moreHref } = loaderData;
  const [form, fields] = useValidatedForm(() => import("./add-students.schema").then((m) => m.schema), actionData);
  const error = firstError(t, fields.studentIds.errors);
  const chosen = listValue(fields.studentIds.initialValue);
  const summary = errorSummaryItems(t, [{ id: FIELD_ID, errors: fields.studentIds.errors }]);

  return (
    <div className="app-content">
      <p>
        <Link to={href("/teacher/class/:classId", { classId: String(classId) })}>
          {t("addStudents.backToClass", { subject })}
        </Link>
      </p>
      <ErrorSummary errors={summary} />
      <PageHeading caption={`${subject}, ${semesterName}`}>{t("addStudents.heading")}</PageHeading>
      <p className="app-lead">{t("addStudents.intro")}</p>

      <TeacherStudentSearch classId={classId} q={q} />

      {students.length === 0 ? (
        <p>{q ? t("addStudents.none") : t("addStudents.noStudents")}</p>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate>
          <CheckboxGroup
            name={fields.studentIds.name}
            id={FIELD_ID}
            legend={t("addStudents.legend")}
            legendSize="m"
            error={error}
            defaultValue={chosen}
            options={students.map((s) => ({
              value: String(s.userId),
              label: s.displayName,
              disabled: s.teacherName !== null,
              hint: (
                <>
                  {s.email}
                  {s.teacherName !== null ? (
                    <>
                      <br />
                      {s.mine ? t("addStudents.isYours") : t("addStudents.hasTeacher", { name: s.teacherName })}
                    </>
                  ) : null}
                </>
              ),
            }))}
          />
          <Pagination
            href={moreHref ?? undefined}
            label={t("addStudents.more")}
            status={t("addStudents.shown", { shown: students.length, total })}
          />
          <Button disabled={busy}>{t("addStudents.submit")}</Button>
        </Form>
      )}
    </div>
  );
}
