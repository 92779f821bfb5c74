import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { Button, ErrorSummary, PageHeading, RadioGroup } from "~/components/ui";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { matchingClasses, requireRole } from "~/services/identity/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { ROLE } from "~/services/identity";
import { osloDate } from "~/services/platform/semesters";
import { currentReferenceOf, joinClass } from "~/services/placements/index.server";
import { schema } from "./join-class.schema";
import type { Route } from "./+types/join-class";

export const handle = { titleKey: "student:join.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Student);
  const db = await getDb();
  const today = osloDate(new Date());
  if (await currentReferenceOf(db, session.user.id, today)) throw redirect("/student/forms");
  return { matching: await matchingClasses(db, session.user.id, today) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Student);
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });

  const outcome = await joinClass(await getDb(), {
    studentUserId: session.user.id,
    classId: Number(submission.value.classId),
    today: osloDate(new Date()),
    ip: clientAddress(request),
  });
  if (!outcome.ok) {
    if (outcome.error === "alreadyInClass") {
      // This page only exists for students without a class, so the refusal is told where their class is.
      return redirectWithFlash("/student/forms", {
        type: "error",
        key: "student:join.alreadyInClass",
        values: { subject: outcome.subjectCode },
      });
    }
    return data(submission.reply({ fieldErrors: { classId: ["student:errors.notMatching"] } }), { status: 400 });
  }
  return redirectWithFlash("/student/forms", {
    type: "success",
    key: "student:join.joined",
    values: { subject: `${outcome.subjectCode} ${outcome.subjectName}` },
  });
}

export default function JoinClass({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("student");
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(() => import("./join-class.schema").then((m) => m.schema), actionData);
  const { matching } = loaderData;

  return (
    <div className="app-content">
      <ErrorSummary
        errors={errorSummaryItems(t, [fields.classId], { errors: form.errors, fieldId: fields.classId.id })}
      />
      <PageHeading>{t("join.title")}</PageHeading>
      <p>{t("join.info")}</p>
      <p>{t("join.onlyMatching")}</p>
      {matching.length === 0 ? (
        <p>{t("join.noneMatching")}</p>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate>
          <RadioGroup
            name={fields.classId.name}
            id={fields.classId.id}
            legend={t("join.legend")}
            legendSize="m"
            required
            options={matching.map((c) => ({
              value: String(c.classId),
              label: `${c.subjectCode} ${c.subjectName}`,
              hint: c.semesterName,
            }))}
            defaultValue={fields.classId.initialValue ?? null}
            error={firstError(t, fields.classId.errors)}
          />
          <Button disabled={navigation.state === "submitting"}>{t("join.submit")}</Button>
        </Form>
      )}
    </div>
  );
}
