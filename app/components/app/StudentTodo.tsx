import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { Card, LinkButton, Tag, VisuallyHidden } from "~/components/ui";
import type { StudentTodo as StudentTodoOf } from "~/services/placements/index.server";

/** What the student has to do now: the warning's state, the signing form's page when it waits, and each form not sent. */
export interface StudentTodoData {
  warning: StudentTodoOf["warning"];
  signingHref: string | null;
  forms: {
    key: string;
    name: string;
    isMidSemester: boolean;
    deadline: string | null;
    behind: boolean;
    draft: boolean;
    href: string;
  }[];
}

/**
 * The student's to-do, first: a warning to read and confirm (once confirmed it keeps its card, so
 * it stays one click away), the signing form waiting for their signature, and each form not sent
 * with its deadline.
 */
export function StudentTodo({ todo }: { todo: StudentTodoData }) {
  const { t } = useTranslation("todo");
  const nothing = todo.warning === null && todo.signingHref === null && todo.forms.length === 0;
  return (
    <section aria-labelledby="todo-heading" className="app-todo">
      <h2 id="todo-heading">{t("heading")}</h2>
      {nothing ? <p>{t("nothing")}</p> : null}
      {todo.warning ? (
        <Card
          title={t("warning.heading")}
          headingLevel={3}
          className={todo.warning === "given" ? "app-todo__card app-todo__card--warning" : "app-todo__card"}
          actions={
            <LinkButton to={href("/student/warning")} variant={todo.warning === "given" ? "primary" : "secondary"}>
              {todo.warning === "given" ? t("warning.read") : t("warning.open")}
            </LinkButton>
          }
        >
          <p>{todo.warning === "given" ? t("warning.given") : t("warning.confirmed")}</p>
        </Card>
      ) : null}
      {todo.signingHref ? (
        <Card
          title={t("signing.heading")}
          headingLevel={3}
          className="app-todo__card"
          actions={<LinkButton to={todo.signingHref}>{t("signing.open")}</LinkButton>}
        >
          <p>{t("signing.waits")}</p>
        </Card>
      ) : null}
      {todo.forms.length > 0 ? (
        <>
          <h3>{t("forms.heading")}</h3>
          <ul className="app-todo__list">
            {todo.forms.map((f) => (
              <li key={f.key}>
                <Link to={f.href}>
                  {f.draft ? t("forms.continue") : t("forms.start")}
                  <VisuallyHidden>:</VisuallyHidden> {f.name}
                </Link>{" "}
                ({f.isMidSemester ? t("forms.mid") : t("forms.end")}) –{" "}
                {f.deadline ? t("forms.deadline", { date: f.deadline }) : t("forms.noDeadline")}
                {f.behind ? (
                  <>
                    {" "}
                    <Tag variant="warning">{t("forms.behind")}</Tag>
                  </>
                ) : null}
                {f.draft ? <> · {t("forms.draft")}</> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
