import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { CommentList } from "~/components/app/CommentList";
import { GradeChart, type GradeChartSeries } from "~/components/app/GradeChart";
import { RoleBadge } from "~/components/app/RoleBadge";
import { PageHeading, Tag, VisuallyHidden } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam } from "~/services/platform/ids";
import { requireAreaRole } from "~/services/identity/index.server";
import { formResults, resultsForView, type ResultsView } from "~/services/answering/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/form-results";
import "~/styles/answers.css";
import enDocuments from "~/locales/en/documents.json";
import nbDocuments from "~/locales/nb/documents.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("documents", { nb: nbDocuments, en: enDocuments });

export const handle = { titleKey: "answers:results.title" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireAreaRole(request, context);
  const role = session.activeRole;
  const ids = {
    classId: idParam(params.classId),
    formId: idParam(params.formId),
    studentUserId: idParam(params.studentUserId),
  };
  const db = await getDb();
  const results = await formResults(db, { userId: session.user.id, role }, ids);
  // After the check above, so only a permitted opening is recorded (none for the student's own).
  await recordOpening(db, {
    viewerUserId: session.user.id,
    viewerRole: role,
    studentUserId: ids.studentUserId,
    classId: ids.classId,
    kind: "results",
  });
  const view = resultsForView(results, getLanguage(context));
  const base =
    role === ROLE.Student
      ? `/student/${ids.studentUserId}/form/${ids.formId}/class/${ids.classId}`
      : `/${role === ROLE.Teacher ? "teacher" : "supervisor"}/class/${ids.classId}/student/${ids.studentUserId}/form/${ids.formId}`;
  return {
    pageTitle: view.formName,
    view,
    back:
      role === ROLE.Student
        ? "/student/forms"
        : `/${role === ROLE.Teacher ? "teacher" : "supervisor"}/class/${ids.classId}/student/${ids.studentUserId}`,
    // The viewer answers a half's form at this path plus `/assignment/:assignmentId` (the student's has another order).
    answerBase: base,
    pdfHref: `/api/classes/${ids.classId}/students/${ids.studentUserId}/forms/${ids.formId}/pdf`,
  };
}

type Half = ResultsView["halves"][number];
type Group = Half["groups"][number];

const toLevel = (value: string | null) => (value === null || !/^\d+$/.test(value) ? null : Number(value));

const CHART_KIND = { student: "student", advisor: "advisor", teacher: "teacher" } as const;

/** Consecutive grading groups with the same labels share one chart (normally all of them: the independence scale). */
function chartRuns(groups: readonly Group[]): { options: readonly string[]; groups: Group[] }[] {
  const runs: { options: readonly string[]; groups: Group[] }[] = [];
  for (const group of groups) {
    if (group.type !== "grading") continue;
    const last = runs.at(-1);
    if (last && last.options.join("\u0000") === group.options.join("\u0000")) last.groups.push(group);
    else runs.push({ options: group.options, groups: [group] });
  }
  return runs;
}

/** One chart series per column; a second supervisor or teacher gets a numbered badge (PV2, PL2). */
function chartSeries(
  half: Half,
  groups: readonly Group[],
  t: (key: string, values?: Record<string, string>) => string,
): GradeChartSeries[] {
  const seen: Record<string, number> = {};
  return half.columns.map((column, i) => {
    const count = (seen[column.badge] = (seen[column.badge] ?? 0) + 1);
    const kind =
      column.kind === "other"
        ? column.badge === "S"
          ? "student"
          : column.badge === "PV"
            ? "advisor"
            : "teacher"
        : CHART_KIND[column.kind];
    return {
      key: column.key,
      label: t(`results.series.${column.badge}`, { name: column.authorName }),
      short: count > 1 ? `${column.badge}${count}` : column.badge,
      kind,
      values: groups.flatMap((group) => group.rows.map((row) => toLevel(row.values[i]))),
    };
  });
}

export default function FormResults({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("answers");
  const { view, back, answerBase, pdfHref } = loaderData;
  return (
    <div className="app-content results-page">
      <p>
        <Link to={back}>{t("results.back")}</Link>
      </p>
      <PageHeading
        caption={[view.subject, view.relation === "self" ? null : view.student.displayName].filter(Boolean).join(" · ")}
      >
        {t("results.heading", { form: view.formName })}
      </PageHeading>
      <p>{view.relation === "self" ? t("results.introStudent") : t("results.introStaff")}</p>
      <p>
        {/* A resource route (a file), so a full document request rather than client navigation. */}
        <a href={pdfHref}>{t("documents:links.resultsPdf")}</a>
      </p>
      {view.halves
        .filter((half) => half.assignmentId !== null)
        .map((half) => (
          <HalfResults
            key={String(half.isMidSemester)}
            half={half}
            answerHref={`${answerBase}/assignment/${half.assignmentId}`}
          />
        ))}
    </div>
  );
}

function HalfResults({ half, answerHref }: { half: Half; answerHref: string }) {
  const { t } = useTranslation("answers");
  const halfName = half.isMidSemester ? t("half.mid") : t("half.end");
  const headingId = `half-${half.isMidSemester ? "mid" : "end"}`;
  // Grading questions numbered through the half, the same in the chart and the tables.
  const numbers = new Map(
    half.groups
      .filter((g) => g.type === "grading")
      .flatMap((g) => g.rows.map((row) => row.questionId))
      .map((id, i) => [id, i + 1]),
  );
  return (
    <section aria-labelledby={headingId} className="results-half">
      <h2 id={headingId}>{halfName}</h2>
      <p>
        <Link to={answerHref}>{t("results.answer", { half: halfName.toLowerCase() })}</Link>
      </p>
      {half.columns.length === 0 ? (
        <p>{t("results.none")}</p>
      ) : (
        <>
          {chartRuns(half.groups).map((run) => (
            <GradeChart
              key={run.groups[0].id}
              className="results-chart"
              title={t("results.chartTitle", { half: halfName })}
              description={t("results.chartDescription")}
              levels={run.options}
              questions={run.groups.flatMap((group) =>
                group.rows.map((row) => ({
                  key: String(row.questionId),
                  label: row.text,
                  number: String(numbers.get(row.questionId)),
                })),
              )}
              series={chartSeries(half, run.groups, t)}
              expected={
                half.expectationsShown
                  ? {
                      label: t("results.expected"),
                      values: run.groups.flatMap((group) => group.rows.map((row) => toLevel(row.expected))),
                    }
                  : null
              }
              questionsHeading={t("results.question")}
              legendLabel={t("results.legend")}
            />
          ))}
          {half.groups.map((group) => (
            <GroupResults key={group.id} group={group} half={half} halfName={halfName} numbers={numbers} />
          ))}
        </>
      )}
    </section>
  );
}

function ColumnHeader({ column }: { column: Half["columns"][number] }) {
  const { t } = useTranslation("answers");
  return (
    <>
      <RoleBadge kind={column.badge} /> {column.authorName}
      {column.sentText ? null : (
        <>
          {" "}
          <Tag variant="warning">{t("results.draft")}</Tag>
        </>
      )}
    </>
  );
}

function GroupResults({
  group,
  half,
  halfName,
  numbers,
}: {
  group: Group;
  half: Half;
  halfName: string;
  numbers: Map<number, number>;
}) {
  const { t } = useTranslation("answers");
  const label = (value: string | null) =>
    value === null ? "–" : group.type === "grading" ? (group.options[Number(value)] ?? value) : value;
  const commented = group.rows.filter((row) => row.comments.length > 0);

  if (group.type === "text") {
    return (
      <div className="results-group">
        <h3>{group.name}</h3>
        {group.rows.map((row) => (
          <div key={row.questionId} className="results-text">
            <h4>{row.text}</h4>
            {half.columns.map((column, i) =>
              row.values[i] ? (
                <div key={column.key} className="results-text__answer">
                  <p className="comment-list__meta">
                    <ColumnHeader column={column} />
                  </p>
                  <p className="results-text__body">{row.values[i]}</p>
                </div>
              ) : null,
            )}
            {row.values.every((v) => v === null) ? <p>{t("results.noText")}</p> : null}
          </div>
        ))}
      </div>
    );
  }

  const captionId = `caption-${half.isMidSemester ? "mid" : "end"}-${group.id}`;
  return (
    <div className="results-group">
      <h3>{group.name}</h3>
      <div className="ui-table-wrapper" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="ui-table results-table">
          <caption id={captionId} className="ui-table__caption ui-visually-hidden">
            {t("results.caption", { group: group.name, half: halfName })}
          </caption>
          <thead className="ui-table__head">
            <tr className="ui-table__row">
              <th scope="col" className="ui-table__header">
                {t("results.question")}
              </th>
              {half.columns.map((column) => (
                <th key={column.key} scope="col" className="ui-table__header">
                  <ColumnHeader column={column} />
                </th>
              ))}
              {half.expectationsShown ? (
                <th scope="col" className="ui-table__header">
                  {t("results.expected")}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="ui-table__body">
            {group.rows.map((row) => (
              <tr key={row.questionId} className="ui-table__row">
                <th scope="row" className="ui-table__header ui-table__header--row">
                  <span className="answer-question__number">
                    {t("question.number", { number: numbers.get(row.questionId) })}{" "}
                  </span>
                  {row.text}
                </th>
                {row.values.map((value, i) => (
                  <td key={half.columns[i].key} className="ui-table__cell">
                    {label(value)}
                  </td>
                ))}
                {half.expectationsShown ? (
                  <td className="ui-table__cell results-table__expected">
                    {row.expected === null ? t("results.noExpected") : label(row.expected)}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* Below 40em the same figures as one card per question (answers.css shows one or the other):
          the question in full, each person's level and the expected level, nothing scrolled sideways. */}
      <ul className="results-cards">
        {group.rows.map((row) => (
          <li key={row.questionId} className="results-card">
            <h4 className="results-card__question">
              <span className="answer-question__number">
                {t("question.number", { number: numbers.get(row.questionId) })}{" "}
              </span>
              {row.text}
            </h4>
            <dl className="results-card__levels">
              {half.columns.map((column, i) => (
                <div key={column.key}>
                  <dt>
                    <ColumnHeader column={column} />
                  </dt>
                  <dd>{label(row.values[i])}</dd>
                </div>
              ))}
              {half.expectationsShown ? (
                <div className="results-table__expected">
                  <dt>{t("results.expected")}</dt>
                  <dd>{row.expected === null ? t("results.noExpected") : label(row.expected)}</dd>
                </div>
              ) : null}
            </dl>
          </li>
        ))}
      </ul>
      {commented.length > 0 ? (
        <div className="results-comments">
          <h4>{t("results.comments", { group: group.name })}</h4>
          {commented.map((row) => (
            <Fragment key={row.questionId}>
              <p className="results-comments__question">
                <VisuallyHidden>{t("results.commentsOn")} </VisuallyHidden>
                {row.text}
              </p>
              <CommentList comments={row.comments} />
            </Fragment>
          ))}
        </div>
      ) : null}
    </div>
  );
}
