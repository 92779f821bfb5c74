import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { href } from "~/components/href";
import { ClassDetails, SchemesTable } from "~/components/app/ClassDetails";
import { PeopleTable } from "~/components/app/PeopleTable";
import { errorMessage, errorSummaryItems, firstError } from "~/components/form-errors";
import { listValue, useValidatedForm } from "~/components/use-validated-form";
import { Button, CheckboxGroup, ErrorSummary, PageHeading, Tag } from "~/components/ui";
import { classHeaderView } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { deadlineText } from "~/services/placements";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound, parseId } from "~/services/platform/ids";
import { requireClassAccess, supervisorClassPage, takeStudents } from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { takeSchema } from "./class.schema";
import type { Route } from "./+types/class";
import enSupervisor from "~/locales/en/supervisor.json";
import nbSupervisor from "~/locales/nb/supervisor.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import "~/styles/overviews.css";

import enTodo from "~/locales/en/todo.json";
import nbTodo from "~/locales/nb/todo.json";

provideNamespace("supervisor", { nb: nbSupervisor, en: enSupervisor });
provideNamespace("todo", { nb: nbTodo, en: enTodo });

export const handle = { titleKey: "supervisor:class.title" };

async function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireRole(args.request, args.context, ROLE.Supervisor);
  const classId = idParam(args.params.classId);
  const db = await getDb();
  await requireClassAccess(db, { userId: session.user.id, role: ROLE.Supervisor }, classId);
  return { session, db, classId };
}

export async function loader(args: Route.LoaderArgs) {
  const { session, db, classId } = await guard(args);
  const page = await supervisorClassPage(db, classId, session.user.id);
  if (!page) notFound();
  const { header, classHalf, schemes, ...rest } = page;
  return {
    ...rest,
    header: classHeaderView(header, getLanguage(args.context)),
    classHalf: { half: classHalf.half, text: classHalf.deadline ? deadlineText(classHalf.deadline) : null },
    schemes: schemes.map(({ schemeId, isMidSemester, forms }) => ({ schemeId, isMidSemester, forms })),
  };
}

export async function action(args: Route.ActionArgs) {
  const { session, db, classId } = await guard(args);
  const formData = await readFormData(args.request);
  if (formData.get("intent") !== "take") throw new Response("Bad Request", { status: 400 });
  const submission = parseWithZod(formData, { schema: takeSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const ids = submission.value.studentUserIds.map(parseId);
  const outcome = ids.includes(null)
    ? ({ ok: false, error: "unknownStudent" } as const)
    : await takeStudents(db, {
        classId,
        supervisorUserId: session.user.id,
        studentUserIds: ids as number[],
        ip: clientAddress(args.request),
      });
  if (!outcome.ok) {
    // Only a supervisor attached to the class may take students; one who follows a student sees no list.
    if (outcome.error === "notAttached") throw new Response("Forbidden", { status: 403 });
    const key = `supervisor:errors.${outcome.error}`;
    const reply = submission.reply({
      fieldErrors: {
        studentUserIds: ["names" in outcome ? errorMessage(key, { names: outcome.names.join(", ") }) : key],
      },
    });
    return data({ result: reply }, { status: 400 });
  }
  const self = href("/supervisor/class/:classId", { classId: String(classId) });
  const taken = outcome.taken.join(", ");
  const missed = outcome.missed.join(", ");
  if (outcome.missed.length === 0)
    return redirectWithFlash(self, { type: "success", key: "supervisor:take.taken", values: { names: taken } });
  if (outcome.taken.length === 0)
    return redirectWithFlash(self, { type: "error", key: "supervisor:take.missed", values: { names: missed } });
  return redirectWithFlash(self, { type: "info", key: "supervisor:take.some", values: { taken, missed } });
}

export default function SupervisorClass({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("supervisor");
  const busy = useNavigation().state === "submitting";
  const { header, classHalf, schemes, students, attached, unassigned } = loaderData;
  const classId = header.classId;
  const [takeForm, takeFields] = useValidatedForm(
    () => import("./class.schema").then((m) => m.takeSchema),
    actionData?.result,
  );
  const halfName = (isMid: boolean) => (isMid ? t("half.mid") : t("half.end"));

  return (
    <div className="app-content">
      <p>
        <Link to="/supervisor">{t("class.backToHome")}</Link>
      </p>
      <ErrorSummary errors={errorSummaryItems(t, [takeFields.studentUserIds])} />
      <PageHeading caption={header.semesterName}>
        {header.subjectCode} {header.subjectName}
      </PageHeading>
      <ClassDetails header={header} deadline={classHalf} />

      <h2>{t("common:schemes.heading")}</h2>
      <SchemesTable
        schemes={schemes}
        formHref={(formId) =>
          `${href("/supervisor/form/:formId", { formId: String(formId) })}?${new URLSearchParams({
            from: href("/supervisor/class/:classId", { classId: String(classId) }),
          })}`
        }
      />

      <h2>{t("students.heading", { count: students.length })}</h2>
      <PeopleTable
        caption={t("students.caption")}
        empty={t("students.none")}
        people={students}
        href={(s) =>
          href("/supervisor/class/:classId/student/:userId", { classId: String(classId), userId: String(s.userId) })
        }
        nameHeader={t("students.name")}
        emailHeader={t("students.email")}
        deactivatedLabel={t("students.deactivated")}
        className="supervisor-students"
        columns={[
          {
            header: t("students.relation"),
            cell: (s) => (s.relation === "assigned" ? t("students.assigned") : t("students.extra")),
          },
          { header: t("students.teacher"), cell: (s) => s.teacherName ?? t("students.noTeacher") },
          {
            header: t("students.progress"),
            cell: (s) =>
              s.formsTotal === 0
                ? t("students.noForms", { half: halfName(s.half === "mid") })
                : t("students.progressValue", {
                    half: halfName(s.half === "mid"),
                    sent: s.formsSent,
                    total: s.formsTotal,
                  }),
          },
          {
            header: t("todo:overview.warning"),
            cell: (s) =>
              s.warning === "given" ? (
                <Tag variant="warning">{t("todo:overview.warningState.given")}</Tag>
              ) : (
                t(`todo:overview.warningState.${s.warning}`)
              ),
          },
          {
            header: t("todo:overview.signing"),
            cell: (s) =>
              s.signing.state === "waiting" ? (
                <>
                  <Tag variant="warning">{t("todo:overview.signingState.waiting")}</Tag>{" "}
                  {s.signing.waitingFor.map((w) => t(`todo:overview.signer.${w}`)).join(", ")}
                </>
              ) : s.signing.state === "signed" ? (
                <Tag variant="success">{t("todo:overview.signingState.signed")}</Tag>
              ) : (
                t(`todo:overview.signingState.${s.signing.state}`)
              ),
          },
        ]}
      />

      {attached ? (
        <>
          <h2>{t("take.heading")}</h2>
          {unassigned.length === 0 ? (
            <p>{t("take.none")}</p>
          ) : (
            <Form method="post" {...getFormProps(takeForm)} key={`take-${unassigned.length}`} noValidate>
              <input type="hidden" name="intent" value="take" />
              <CheckboxGroup
                name={takeFields.studentUserIds.name}
                id={takeFields.studentUserIds.id}
                legend={t("take.legend")}
                legendSize="s"
                hint={t("take.hint")}
                options={unassigned.map((s) => ({ value: String(s.userId), label: s.displayName }))}
                defaultValue={listValue(takeFields.studentUserIds.initialValue)}
                error={firstError(t, takeFields.studentUserIds.errors)}
              />
              <Button disabled={busy}>{t("take.submit")}</Button>
            </Form>
          )}
        </>
      ) : null}
    </div>
  );
}
