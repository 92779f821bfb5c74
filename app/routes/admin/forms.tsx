import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { Card, LinkButton, Table, Tag, VisuallyHidden } from "~/components/ui";
import { listForms } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/forms";
import enDocuments from "~/locales/en/documents.json";
import nbDocuments from "~/locales/nb/documents.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enAdminForms from "~/locales/en/adminForms.json";
import nbAdminForms from "~/locales/nb/adminForms.json";

// Only the admin's form pages use these texts: not in the language chunk every page loads (ADR 0012).
provideNamespace("adminForms", { nb: nbAdminForms, en: enAdminForms });

provideNamespace("documents", { nb: nbDocuments, en: enDocuments });

export const handle = { titleKey: "adminForms:title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const forms = await listForms(await getDb());
  return {
    mainForms: forms.filter((f) => f.isMainForm),
    specificForms: forms.filter((f) => !f.isMainForm),
  };
}

const editPath = (formId: number) => href("/admin/forms/edit/:formId", { formId: String(formId) });
const pdfPath = (formId: number) => href("/api/forms/:formId/pdf", { formId: String(formId) });

export default function Forms({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminForms");
  // A resource route (a file), so a full document request rather than client navigation.
  const pdfLink = (form: { id: number; name: string }) => (
    <a href={pdfPath(form.id)}>
      {t("documents:links.emptyForm")}
      <VisuallyHidden> {t("documents:links.emptyFormFor", { form: form.name })}</VisuallyHidden>
    </a>
  );
  const { mainForms, specificForms } = loaderData;
  const inUseTag = (inUse: boolean) =>
    inUse ? <Tag variant="success">{t("list.inUse")}</Tag> : <Tag>{t("list.notInUse")}</Tag>;
  return (
    <div className="app-content">
      <h1>{t("title")}</h1>
      <p className="app-lead">{t("list.intro")}</p>
      <LinkButton to="/admin/forms/create">{t("list.create")}</LinkButton>

      <h2>{t("list.mainForms")}</h2>
      {mainForms.length === 0 ? (
        <p>{t("list.mainFormsNone")}</p>
      ) : (
        <ul className="card-grid">
          {mainForms.map((form) => (
            <li key={form.id}>
              <Card title={form.name} headingLevel={3} href={editPath(form.id)} actions={pdfLink(form)}>
                <p>
                  {t("list.groupCount", { count: form.groupCount })},{" "}
                  {t("list.questionCount", { count: form.questionCount })}
                </p>
                <p>{inUseTag(form.inUse)}</p>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <h2>{t("list.specific")}</h2>
      {specificForms.length === 0 ? (
        <p>{t("list.specificNone")}</p>
      ) : (
        <Table
          caption={t("list.specific")}
          captionHidden
          rowHeaders
          columns={[
            { header: t("list.name") },
            { header: t("list.groups"), numeric: true },
            { header: t("list.questions"), numeric: true },
            { header: t("list.status") },
            { header: t("documents:links.pdfColumn") },
          ]}
          rows={specificForms.map((form) => ({
            key: String(form.id),
            cells: [
              <Link to={editPath(form.id)}>{form.name}</Link>,
              form.groupCount,
              form.questionCount,
              inUseTag(form.inUse),
              pdfLink(form),
            ],
          }))}
        />
      )}
    </div>
  );
}
