import { getFormProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { firstError } from "~/components/form-errors";
import { Button, Select } from "~/components/ui";
import type { CopiedForm } from "~/services/admin/index.server";

/** A class of the same subject in an earlier semester with expected levels to copy (expectationSources). */
interface CopySource {
  classId: number;
  semesterName: string;
  levels: number;
}

/** Copying the expected levels of an earlier semester's class into this class's schemes. */
export function AdminClassCopy({
  hasSchemes,
  sources,
  form,
  field,
}: {
  hasSchemes: boolean;
  sources: CopySource[];
  form: FormMetadata;
  field: FieldMetadata<string>;
}) {
  const { t } = useTranslation("adminClass");
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <h3 id="copy-heading" tabIndex={-1}>
        {t("copy.heading")}
      </h3>
      {!hasSchemes ? (
        <p>{t("copy.noSchemes")}</p>
      ) : sources.length === 0 ? (
        <p>{t("copy.none")}</p>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate>
          <input type="hidden" name="intent" value="copyExpectations" />
          <p>{t("copy.intro")}</p>
          <Select
            label={t("copy.label")}
            name={field.name}
            id={field.id}
            // Not `required`: the list has no empty choice, so a semester is always chosen (and HTML
            // allows `required` on a single select only when its first option is an empty placeholder).
            options={sources.map((s) => ({
              value: String(s.classId),
              label: t("copy.option", { semester: s.semesterName, count: s.levels }),
            }))}
            defaultValue={field.initialValue ?? String(sources[0].classId)}
            error={firstError(t, field.errors)}
          />
          <Button variant="secondary" disabled={busy}>
            {t("copy.submit")}
          </Button>
        </Form>
      )}
    </>
  );
}

/**
 * What a copy did, in the reader's language, for the flash after it: the forms copied (with their
 * questions' count) and those of the semester that had nothing to copy, each named with its half.
 */
export function copyResultMessage(
  t: TFunction<"adminClass">,
  semester: string,
  outcome: { copied: CopiedForm[]; notMatched: Omit<CopiedForm, "questions">[] },
): string {
  const halfText = (isMid: boolean) => t(isMid ? "schemes.halfText.mid" : "schemes.halfText.end");
  const named = (f: { name: string; isMidSemester: boolean }) => `${f.name} (${halfText(f.isMidSemester)})`;
  const notMatched = outcome.notMatched.map(named).join(", ");
  if (outcome.copied.length === 0) return t("copyResult.nothingCopied", { semester, forms: notMatched });
  const copied = outcome.copied
    .map((f) => t("copyResult.copiedForm", { form: f.name, half: halfText(f.isMidSemester), count: f.questions }))
    .join("; ");
  const parts = [t("copyResult.copied", { semester, copied })];
  if (outcome.notMatched.length > 0) parts.push(t("copyResult.notMatched", { semester, forms: notMatched }));
  return parts.join(" ");
}
