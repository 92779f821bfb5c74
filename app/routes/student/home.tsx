import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { Button, Card, LinkButton, RadioGroup, SummaryList, Table, Tag, VisuallyHidden } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { deadlineText } from "~/services/placements";
import { matchingClasses, requireRole } from "~/services/identity/index.server";
import {
  classesOfStudent,
  requireStudentAccess,
  placementOf,
  classesWithSigningForm,
  currentReferenceOf,
  documentPaths,
  studentFormPath,
  studentTodo,
} from "~/services/placements/index.server";
import { ROLE } from "~/services/identity";
import { osloDate } from "~/services/platform/semesters";
import type { Route } from "./+types/home";
import enTodo from "~/locales/en/todo.json";
import nbTodo from "~/locales/nb/todo.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("todo", { nb: nbTodo, en: enTodo });

export const handle = { titleKey: "student:home.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Student);
  const userId = session.user.id;
  const db = await getDb();
  const today = osloDate(new Date());
  const reference = await currentReferenceOf(db, userId, today);

  let current = null;
  let todo = null;
  if (reference) {
    await requireStudentAccess(db, { userId, role: ROLE.Student }, reference.classId, userId);
    const placement = await placementOf(db, reference.referenceId, userId, today);
    if (placement) {
      const classId = placement.header.classId;
      const list = await studentTodo(db, placement, today);
      todo = {
        warning: list.warning,
        signingHref: list.signingWaits ? `/student/class/${classId}/student/${userId}/signingform` : null,
        forms: list.forms.map((f) => ({
          key: `${f.assignmentId}-${f.formId}`,
          name: f.name,
          isMidSemester: f.isMidSemester,
          deadline: f.deadline ? deadlineText(f.deadline) : null,
          behind: f.due === "behind",
          draft: f.draft,
          href: studentFormPath(userId, f, classId),
        })),
      };
      current = {
        subjectCode: placement.header.subjectCode,
        subjectName: placement.header.subjectName,
        periodName: placement.header.periodName,
        teacher: placement.teacher?.displayName ?? null,
        supervisors: [placement.advisor, ...placement.extraSupervisors]
          .filter((p) => p !== null)
          .map((p) => p.displayName),
        half: placement.half.half,
        deadline: placement.half.deadline ? deadlineText(placement.half.deadline) : null,
      };
    }
  }

  const signed = await classesWithSigningForm(db, userId);
  const earlier = (await classesOfStudent(db, userId, today))
    .filter((c) => c.endDate < today)
    .map((c) => ({
      classId: c.classId,
      subjectCode: c.subjectCode,
      subjectName: c.subjectName,
      periodName: c.periodName,
      ...documentPaths(c.classId, userId, signed.has(c.classId)),
    }));

  return {
    name: session.user.displayName,
    current,
    todo,
    matching: reference ? [] : await matchingClasses(db, userId, today),
    earlier,
  };
}

export default function StudentHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("student");
  const navigation = useNavigation();
  const { name, current, todo, matching, earlier } = loaderData;

  return (
    <div className="app-content">
      <h1>{t("home.title")}</h1>
      <p className="app-lead">{t("home.greeting", { name })}</p>

      {todo ? <StudentTodo todo={todo} /> : null}

      {current ? (
        <>
          <h2>{t("home.currentHeading")}</h2>
          <Card
            title={`${current.subjectCode} ${current.subjectName}`}
            headingLevel={3}
            actions={<LinkButton to="/student/forms">{t("home.toForms")}</LinkButton>}
          >
            <SummaryList
              rows={[
                { key: t("home.semester"), value: current.periodName },
                { key: t("home.teacher"), value: current.teacher ?? t("home.nobody") },
                {
                  key: t("home.supervisors"),
                  value: current.supervisors.length > 0 ? current.supervisors.join(", ") : t("home.nobody"),
                },
                {
                  key: current.half === "mid" ? t("home.deadlineMid") : t("home.deadlineEnd"),
                  value: current.deadline ?? t("home.notSet"),
                },
              ]}
            />
          </Card>
        </>
      ) : (
        <>
          <h2>{t("home.joinHeading")}</h2>
          {matching.length === 0 ? (
            <p>{t("join.noneMatching")}</p>
          ) : (
            <>
              <p>{t("home.joinIntro")}</p>
              <p>{t("join.onlyMatching")}</p>
              <Form method="post" action="/student/join-class" noValidate>
                <RadioGroup
                  name="classId"
                  id="classId"
                  legend={t("join.legend")}
                  legendSize="s"
                  required
                  options={matching.map((c) => ({
                    value: String(c.classId),
                    label: `${c.subjectCode} ${c.subjectName}`,
                    hint: c.periodName,
                  }))}
                />
                <Button disabled={navigation.state === "submitting"}>{t("join.submit")}</Button>
              </Form>
            </>
          )}
        </>
      )}

      {earlier.length > 0 ? (
        <>
          <h2>{t("home.earlierHeading")}</h2>
          <Table
            caption={t("home.earlierHeading")}
            captionHidden
            rowHeaders
            columns={[{ header: t("home.subject") }, { header: t("home.semester") }, { header: t("home.documents") }]}
            rows={earlier.map((c) => {
              const context = t("home.downloadFor", { subject: c.subjectCode, semester: c.periodName });
              return {
                key: String(c.classId),
                cells: [
                  `${c.subjectCode} ${c.subjectName}`,
                  c.periodName,
                  <ul className="student-downloads" key="documents">
                    <li>
                      <Link to={c.fullPdf} reloadDocument>
                        {t("home.downloadForms")}
                        <VisuallyHidden> {context}</VisuallyHidden>
                      </Link>
                    </li>
                    {c.signingFormPdf ? (
                      <li>
                        <Link to={c.signingFormPdf} reloadDocument>
                          {t("home.downloadSigningForm")}
                          <VisuallyHidden> {context}</VisuallyHidden>
                        </Link>
                      </li>
                    ) : null}
                  </ul>,
                ],
              };
            })}
          />
        </>
      ) : null}
    </div>
  );
}

type TodoData = NonNullable<Route.ComponentProps["loaderData"]["todo"]>;

/**
 * The student's to-do, first: a warning to read and confirm (once confirmed it keeps its card, so
 * it stays one click away), the signing form waiting for their signature, and each form not sent
 * with its deadline.
 */
function StudentTodo({ todo }: { todo: TodoData }) {
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
            <LinkButton to="/student/warning" variant={todo.warning === "given" ? "primary" : "secondary"}>
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
