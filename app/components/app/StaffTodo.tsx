import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Table, Tag, VisuallyHidden } from "~/components/ui";
import type { StaffTodoView } from "~/services/placements/index.server";

/**
 * What waits on a teacher or a supervisor, first on their home page: signing forms to sign, forms
 * to answer (Start or Continue, overdue ones marked), warnings the student has not confirmed, and
 * students without a supervisor. Each list only when it has something; one sentence when none has.
 * The texts are the `todo` namespace, which the home pages provide.
 */
export function StaffTodo({ todo }: { todo: StaffTodoView }) {
  const { t } = useTranslation("todo");
  const empty =
    todo.signatures.length === 0 &&
    todo.forms.length === 0 &&
    todo.warnings.length === 0 &&
    todo.withoutSupervisor.length === 0;
  return (
    <section aria-labelledby="todo-heading" className="app-todo">
      <h2 id="todo-heading">{t("heading")}</h2>
      {empty ? <p>{t("nothing")}</p> : null}

      {todo.signatures.length > 0 ? (
        <>
          <h3>{t("staff.signatures")}</h3>
          <ul className="app-todo__list">
            {todo.signatures.map((s) => (
              <li key={s.key}>
                <Link to={s.href}>{t("staff.sign", { student: s.studentName })}</Link> ({s.subject})
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {todo.forms.length > 0 ? (
        <>
          <h3>{t("staff.forms")}</h3>
          <Table
            caption={t("staff.forms")}
            captionHidden
            rowHeaders
            columns={[
              { header: t("staff.student") },
              { header: t("staff.form") },
              { header: t("staff.deadline") },
              { header: <VisuallyHidden>{t("staff.action")}</VisuallyHidden> },
            ]}
            rows={todo.forms.map((f) => ({
              key: f.key,
              cells: [
                <>
                  <Link to={f.studentHref}>{f.studentName}</Link>{" "}
                  <span className="app-todo__subject">({f.subjectCode})</span>
                </>,
                <>
                  {f.formName}{" "}
                  <span className="app-todo__half">({f.isMidSemester ? t("forms.mid") : t("forms.end")})</span>
                </>,
                <>
                  {f.deadline ?? t("forms.noDeadline")}
                  {f.behind ? (
                    <>
                      {" "}
                      <Tag variant="warning">{t("forms.behind")}</Tag>
                    </>
                  ) : null}
                </>,
                <Link key="action" to={f.href}>
                  {f.draft ? t("forms.continue") : t("forms.start")}
                  <VisuallyHidden>
                    {" "}
                    {f.formName}, {f.studentName} ({f.isMidSemester ? t("forms.mid") : t("forms.end")})
                  </VisuallyHidden>
                </Link>,
              ],
            }))}
          />
          {todo.formsTotal > todo.forms.length ? (
            <p>{t("staff.formsMore", { shown: todo.forms.length, total: todo.formsTotal })}</p>
          ) : null}
        </>
      ) : null}

      {todo.warnings.length > 0 ? (
        <>
          <h3>{t("staff.warnings")}</h3>
          <ul className="app-todo__list">
            {todo.warnings.map((w) => (
              <li key={w.key}>
                <Link to={w.href}>{w.studentName}</Link> ({w.subject}), {t("staff.warningGiven", { date: w.given })}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {todo.withoutSupervisor.length > 0 ? (
        <>
          <h3>{t("staff.withoutSupervisor")}</h3>
          <ul className="app-todo__list">
            {todo.withoutSupervisor.map((s) => (
              <li key={s.key}>
                <Link to={s.href}>{s.studentName}</Link> ({s.subject})
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
