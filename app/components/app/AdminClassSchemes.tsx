import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { href } from "~/components/href";
import { AlertBanner, Button, ButtonGroup, LinkButton, Table, Tag, VisuallyHidden } from "~/components/ui";
import type { Scheme } from "~/services/admin/index.server";

/** A response scheme as the admin's class page shows it: its creation day as text. */
export type AdminClassScheme = Omit<Scheme, "createdAt"> & { createdText: string };

/** The scheme a "Remove" link asks about (`?remove=<id>`): the confirmation step, the same with and without JavaScript. */
export const REMOVE_PARAM = "remove";

const formNames = (scheme: AdminClassScheme) => scheme.forms.map((f) => f.name).join(", ");
const halfName = (t: TFunction<"adminClass">, isMidSemester: boolean) =>
  isMidSemester ? t("schemes.mid") : t("schemes.end");
const halfText = (t: TFunction<"adminClass">, isMidSemester: boolean) =>
  isMidSemester ? t("schemes.halfText.mid") : t("schemes.halfText.end");

/** The class's response schemes: the removal's confirmation when one is asked about, then the table. */
export function AdminClassSchemes({
  classId,
  schemes,
  confirmRemove,
}: {
  classId: number;
  schemes: AdminClassScheme[];
  confirmRemove: number | null;
}) {
  const { t } = useTranslation("adminClass");
  const removing = schemes.find((s) => s.schemeId === confirmRemove);
  return (
    <>
      <h2 id="schemes" tabIndex={-1}>
        {t("schemes.heading")}
      </h2>
      {removing ? <RemoveScheme classId={classId} scheme={removing} /> : null}
      {schemes.length === 0 ? (
        <p>{t("schemes.none")}</p>
      ) : (
        <Table
          caption={t("schemes.heading")}
          captionHidden
          rowHeaders
          columns={[
            { header: t("schemes.half") },
            { header: t("schemes.forms") },
            { header: t("schemes.created"), numeric: true },
            { header: t("schemes.sentAnswers"), numeric: true },
            { header: t("schemes.actions") },
          ]}
          rows={schemes.map((scheme) => ({
            key: String(scheme.schemeId),
            cells: [
              halfName(t, scheme.isMidSemester),
              <SchemeForms key="forms" classId={classId} scheme={scheme} />,
              scheme.createdText,
              scheme.sentAnswerSets,
              <Link key="remove" to={`?${REMOVE_PARAM}=${scheme.schemeId}#schemes`} preventScrollReset>
                {t("schemes.remove")}
                <VisuallyHidden>
                  {" "}
                  {t("schemes.removeFor", { half: halfText(t, scheme.isMidSemester), forms: formNames(scheme) })}
                </VisuallyHidden>
              </Link>,
            ],
          }))}
        />
      )}
    </>
  );
}

/** A scheme's forms, each with its tags and the link to set its expected levels. */
function SchemeForms({ classId, scheme }: { classId: number; scheme: AdminClassScheme }) {
  const { t } = useTranslation("adminClass");
  return (
    <ul className="admin-class-forms">
      {scheme.forms.map((form) => (
        <li key={form.formId}>
          {form.name}
          {form.isMainForm ? (
            <>
              {" "}
              <Tag variant="info">{t("schemes.mainForm")}</Tag>
            </>
          ) : null}
          {form.deleted ? (
            <>
              {" "}
              <Tag variant="neutral">{t("schemes.deletedForm")}</Tag>
            </>
          ) : (
            <>
              {" "}
              <Link
                to={href("/admin/class/:classId/form/:formId/assignment/:schemeId", {
                  classId: String(classId),
                  formId: String(form.formId),
                  schemeId: String(scheme.schemeId),
                })}
              >
                {t("schemes.expectations")}
                <VisuallyHidden>
                  {" "}
                  {t("schemes.expectationsFor", { form: form.name, half: halfName(t, scheme.isMidSemester) })}
                </VisuallyHidden>
              </Link>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Removing a scheme: refused while it has answers, else a confirmation that posts the removal. */
function RemoveScheme({ classId, scheme }: { classId: number; scheme: AdminClassScheme }) {
  const { t } = useTranslation("adminClass");
  const busy = useNavigation().state === "submitting";
  const page = href("/admin/class/:classId", { classId: String(classId) });
  if (scheme.answerSets > 0) {
    return (
      <AlertBanner variant="warning" heading={t("schemes.cannotRemoveHeading")} headingLevel={3}>
        <p>{t("schemes.cannotRemove", { count: scheme.answerSets })}</p>
        <p>
          <Link to={`${page}#schemes`}>{t("schemes.cancel")}</Link>
        </p>
      </AlertBanner>
    );
  }
  return (
    <AlertBanner
      variant="warning"
      heading={t("schemes.confirmHeading", { half: halfText(t, scheme.isMidSemester) })}
      headingLevel={3}
    >
      <p>{t("schemes.confirmText", { forms: formNames(scheme) })}</p>
      <Form method="post" action={page}>
        <input type="hidden" name="intent" value="removeScheme" />
        <input type="hidden" name="schemeId" value={scheme.schemeId} />
        <ButtonGroup>
          <Button variant="warning" disabled={busy}>
            {t("schemes.confirmRemove")}
          </Button>
          <LinkButton variant="secondary" to={`${page}#schemes`}>
            {t("schemes.cancel")}
          </LinkButton>
        </ButtonGroup>
      </Form>
    </AlertBanner>
  );
}
