import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { CommentList } from "~/components/app/CommentList";
import { RoleBadge } from "~/components/app/RoleBadge";
import { Tag, VisuallyHidden } from "~/components/ui";
import type { ResultsView } from "~/services/answering/index.server";

export type Half = ResultsView["halves"][number];
export type Group = Half["groups"][number];
type Row = Group["rows"][number];

/** A column's person: their badge and name, and "Utkast" until they have sent it. */
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

/** One group of a half's results: the text answers, or each person's level per question (a table, or cards on a phone). */
export function ResultsGroup({
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
  if (group.type === "text") return <ResultsTextGroup group={group} half={half} />;
  const label = (value: string | null) =>
    value === null ? "–" : group.type === "grading" ? (group.options[Number(value)] ?? value) : value;
  const parts = { group, half, numbers, label };
  return (
    <div className="results-group">
      <h3>{group.name}</h3>
      <ResultsTable {...parts} halfName={halfName} />
      {/* Below 40em the same figures as one card per question (answers.css shows one or the other):
          the question in full, each person's level and the expected level, nothing scrolled sideways. */}
      <ResultsCards {...parts} />
      <ResultsComments group={group} />
    </div>
  );
}

function ResultsTextGroup({ group, half }: { group: Group; half: Half }) {
  const { t } = useTranslation("answers");
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

interface LevelsProps {
  group: Group;
  half: Half;
  numbers: Map<number, number>;
  /** A stored value as people read it: the level's label, or "–". */
  label: (value: string | null) => string;
}

function QuestionText({ row, numbers }: { row: Row; numbers: Map<number, number> }) {
  const { t } = useTranslation("answers");
  return (
    <>
      <span className="answer-question__number">{t("question.number", { number: numbers.get(row.questionId) })} </span>
      {row.text}
    </>
  );
}

function ResultsTable({ group, half, halfName, numbers, label }: LevelsProps & { halfName: string }) {
  const { t } = useTranslation("answers");
  const captionId = `caption-${half.isMidSemester ? "mid" : "end"}-${group.id}`;
  return (
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
                <QuestionText row={row} numbers={numbers} />
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
  );
}

function ResultsCards({ group, half, numbers, label }: LevelsProps) {
  const { t } = useTranslation("answers");
  return (
    <ul className="results-cards">
      {group.rows.map((row) => (
        <li key={row.questionId} className="results-card">
          <h4 className="results-card__question">
            <QuestionText row={row} numbers={numbers} />
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
  );
}

function ResultsComments({ group }: { group: Group }) {
  const { t } = useTranslation("answers");
  const commented = group.rows.filter((row) => row.comments.length > 0);
  if (commented.length === 0) return null;
  return (
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
  );
}
