import { getFormProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { firstError } from "~/components/form-errors";
import { Button, TextField } from "~/components/ui";

/** The class's semester and evaluation dates as stored (yyyy-mm-dd) and as text (classHeaderView). */
export interface AdminClassDates {
  semesterStart: string;
  semesterEnd: string;
  semesterStartText: string | null;
  semesterEndText: string | null;
  midSemesterDate: string | null;
  endSemesterDate: string | null;
}

/**
 * The admin's form for the class's mid- or end-semester date: a date within the semester, the
 * mid-semester date before the end-semester one. Mounted afresh when the stored date changes.
 */
export function AdminClassDateForm({
  half,
  header,
  form,
  field,
}: {
  half: "mid" | "end";
  header: AdminClassDates;
  form: FormMetadata;
  field: FieldMetadata<string>;
}) {
  const { t } = useTranslation("adminClass");
  const busy = useNavigation().state === "submitting";
  const mid = half === "mid";
  const stored = mid ? header.midSemesterDate : header.endSemesterDate;
  return (
    <>
      <h2>{t(mid ? "midDate.heading" : "endDate.heading")}</h2>
      <Form method="post" {...getFormProps(form)} key={`${half}-${stored ?? ""}`} noValidate>
        <input type="hidden" name="intent" value={mid ? "midDate" : "endDate"} />
        <TextField
          type="date"
          width="10"
          label={t(mid ? "midDate.label" : "endDate.label")}
          hint={t(mid ? "midDate.hint" : "endDate.hint", {
            start: header.semesterStartText,
            end: header.semesterEndText,
          })}
          name={field.name}
          id={field.id}
          min={mid ? header.semesterStart : (header.midSemesterDate ?? header.semesterStart)}
          max={mid ? (header.endSemesterDate ?? header.semesterEnd) : header.semesterEnd}
          required
          defaultValue={field.initialValue ?? stored ?? ""}
          error={firstError(t, field.errors)}
        />
        <Button disabled={busy}>{t(mid ? "midDate.submit" : "endDate.submit")}</Button>
      </Form>
    </>
  );
}
