import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { PageHeading, Tag, VisuallyHidden } from "~/components/ui";
import { formToRead } from "~/services/documents/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { idParam, notFound } from "~/services/platform/ids";
import { requireAreaRole } from "~/services/identity/index.server";
import { ROLE, safeRedirect } from "~/services/identity";
import type { Route } from "./+types/form-read";
import "~/styles/read-pages.css";
import enDocuments from "~/locales/en/documents.json";
import nbDocuments from "~/locales/nb/documents.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

// The page's texts are not in the language chunk every page loads (ADR 0012).
provideNamespace("documents", { nb: nbDocuments, en: enDocuments });

export const handle = { titleKey: "documents:formRead.title" };

/**
 * A form as a page to read (`/teacher/form/{formId}`, `/supervisor/form/{formId}`): its
 * groups, questions, help texts and grading labels, so a teacher or supervisor sees what the
 * student will be asked. One module for both areas: the area's route entry gives the role (requireAreaRole). The same
 * rule as the form's PDF (ADR 0010): a form that a class of theirs answers; anyone else gets 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireAreaRole(request, context);
  const role = session.activeRole;
  if (role !== ROLE.Teacher && role !== ROLE.Supervisor) notFound();
  const formId = idParam(params.formId);
  const found = (await formToRead(await getDb(), { userId: session.user.id, role }, formId)) ?? notFound();
  const area = role === ROLE.Teacher ? "teacher" : "supervisor";
  return {
    pageTitle: found.form.name,
    form: found.form,
    classes: found.classes.map((c) => ({ ...c, href: `/${area}/class/${c.classId}` })),
    back: safeRedirect(new URL(request.url).searchParams.get("from"), `/${area}`),
    pdfHref: href("/api/forms/:formId/pdf", { formId: String(found.form.formId) }),
  };
}

export default function FormRead({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("documents");
  const { form, classes, back, pdfHref } = loaderData;
  const halfName = (half: "mid" | "end") => t(half === "mid" ? "placement:half.mid" : "placement:half.end");
  const graded = form.groups.some((group) => group.type === "grading");
  return (
    <div className="app-content read-page">
      <p>
        <Link to={back}>{t("formRead.back")}</Link>
      </p>
      <PageHeading caption={form.isMainForm ? t("formRead.mainForm") : t("formRead.specificForm")}>
        {form.name}
      </PageHeading>
      <p>{t("formRead.intro")}</p>
      <p>
        <a href={pdfHref}>
          {t("formRead.pdf")}
          <VisuallyHidden> {t("formRead.pdfOf", { form: form.name })}</VisuallyHidden>
        </a>
        {graded ? (
          <>
            {" · "}
            <a href="/independence-scale" target="_blank" rel="noopener">
              {t("formRead.scale")}
              <VisuallyHidden> {t("formRead.newTab")}</VisuallyHidden>
            </a>
          </>
        ) : null}
      </p>

      {classes.length > 0 ? (
        <section aria-labelledby="form-read-classes">
          <h2 id="form-read-classes">{t("formRead.usedIn")}</h2>
          <ul className="placement-list">
            {classes.map((c) => (
              <li key={c.classId}>
                <Link to={c.href}>
                  {c.subjectCode} {c.subjectName}
                </Link>{" "}
                ({c.semesterName}: {c.halves.map(halfName).join(", ")})
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {form.groups.length === 0 ? <p>{t("formRead.empty")}</p> : null}
      {form.groups.map((group, index) => (
        <section key={group.id} aria-labelledby={`group-${group.id}`} className="form-read__group">
          <h2 id={`group-${group.id}`}>
            {t("formRead.groupNumber", { number: index + 1 })} {group.name}
          </h2>
          {group.type === "grading" ? (
            <>
              <p>
                <Tag variant="info">{t("formRead.grading")}</Tag> {t("formRead.gradingText")}
              </p>
              <ul className="form-read__options" aria-label={t("formRead.options", { group: group.name })}>
                {group.options.map((option) => (
                  <li key={option}>{option}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>
              <Tag variant="neutral">{t("formRead.text")}</Tag> {t("formRead.textText")}
            </p>
          )}
          <ol className="form-read__questions">
            {group.questions.map((question) => (
              <li key={question.id}>
                <p className="form-read__question">{question.text}</p>
                {question.helpText ? (
                  <p className="form-read__help">
                    <strong>{t("formRead.helpText")}</strong> {question.helpText}
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
