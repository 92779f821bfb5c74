import { useId, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { Tag, VisuallyHidden, type TagVariant } from "~/components/ui";
import { Pagination } from "~/components/ui/Pagination";
import type {
  AuthorCounts,
  HalfProgress,
  ProgressPage,
  ProgressRow,
  SigningSummary,
  SortDirection,
  SortKey,
} from "~/services/placements/index.server";

/** A half (mid- or end-semester) of a student's row: the forms sent by each author, and how the half stands. */
export interface TeacherProgressHalf {
  counts: AuthorCounts;
  state: HalfProgress;
}

/** One student's row of the progress overview. */
export type TeacherProgressRow = Pick<
  ProgressRow,
  "userId" | "displayName" | "isActive" | "teacherName" | "supervisorName" | "warning" | "signing"
> & { mid: TeacherProgressHalf; end: TeacherProgressHalf };

/** Which page of the overview is shown, and of how many (the rows themselves apart). */
export type TeacherProgressPage = Omit<ProgressPage<TeacherProgressRow>, "rows">;

const STATE_TAG: Record<Exclude<HalfProgress, "none">, TagVariant> = {
  done: "success",
  behind: "warning",
  open: "neutral",
  closed: "neutral",
};

const COLUMNS: SortKey[] = ["name", "teacher", "supervisor", "mid", "end"];

interface ProgressTableProps {
  classId: number;
  rows: TeacherProgressRow[];
  page: TeacherProgressPage;
  formCount: { mid: number; end: number };
  sort: SortKey;
  dir: SortDirection;
}

/** The class page's progress section, for its teachers: the overview of its students, a page at a time. */
export function TeacherClassProgress({
  progress,
  ...table
}: Omit<ProgressTableProps, "rows" | "page"> & {
  progress: { rows: TeacherProgressRow[]; page: TeacherProgressPage };
}) {
  const { t } = useTranslation("teacher");
  return (
    <>
      <h2 id="progress">{t("class.progress.heading")}</h2>
      {progress.page.total === 0 ? (
        <p>{t("class.progress.none")}</p>
      ) : (
        <>
          <p>{t("class.progress.intro")}</p>
          <ProgressTable rows={progress.rows} page={progress.page} {...table} />
        </>
      )}
    </>
  );
}

/**
 * The progress overview: one row per student, sorted by links in the column headers (so it works
 * without JavaScript), the sorted column marked with aria-sort; "Forrige side" and "Neste side" below.
 */
function ProgressTable({ classId, rows, page, formCount, sort, dir }: ProgressTableProps) {
  const { t } = useTranslation("teacher");
  const texts = useProgressTexts();
  const captionId = useId();
  const label: Record<SortKey, string> = {
    name: t("class.progress.student"),
    teacher: t("class.progress.teacher"),
    supervisor: t("class.progress.supervisor"),
    mid: t("class.progress.mid"),
    end: t("class.progress.end"),
  };
  const sortHref = (key: SortKey) => {
    const next: SortDirection = key === sort && dir === "asc" ? "desc" : "asc";
    return { search: `?sort=${key}&dir=${next}`, hash: "progress" };
  };
  const pageHref = (n: number) => ({ search: `?sort=${sort}&dir=${dir}&page=${n}`, hash: "progress" });
  return (
    <>
      <div className="ui-table-wrapper" role="region" aria-labelledby={captionId} tabIndex={0}>
        {/* Stacks on a narrow screen as the Table component does (its data-labels), with the sort links kept in view. */}
        <table className="ui-table ui-table--stack teacher-progress">
          <caption id={captionId} className="ui-table__caption ui-visually-hidden">
            {t("class.progress.captionSorted", {
              column: label[sort],
              direction: dir === "asc" ? t("class.progress.ascending") : t("class.progress.descending"),
            })}
          </caption>
          <thead className="ui-table__head">
            <tr className="ui-table__row" data-label={t("class.progress.sortBy")}>
              {COLUMNS.map((key) => (
                <th
                  key={key}
                  scope="col"
                  className="ui-table__header"
                  aria-sort={key === sort ? (dir === "asc" ? "ascending" : "descending") : undefined}
                >
                  <Link to={sortHref(key)} preventScrollReset className="teacher-progress__sort">
                    {label[key]}
                    {key === sort ? (
                      <span className="teacher-progress__arrow" aria-hidden="true">
                        {dir === "asc" ? " ▲" : " ▼"}
                      </span>
                    ) : null}
                  </Link>
                </th>
              ))}
              <th scope="col" className="ui-table__header">
                {texts.warningHeader}
              </th>
              <th scope="col" className="ui-table__header">
                {texts.signingHeader}
              </th>
            </tr>
          </thead>
          <tbody className="ui-table__body">
            {rows.map((row) => (
              <tr key={row.userId} className={row.isActive ? "ui-table__row" : "ui-table__row ui-table__row--inactive"}>
                <th scope="row" className="ui-table__header ui-table__header--row">
                  <Link
                    to={href("/teacher/class/:classId/student/:userId", {
                      classId: String(classId),
                      userId: String(row.userId),
                    })}
                  >
                    {row.displayName}
                  </Link>
                </th>
                <td className="ui-table__cell" data-label={label.teacher}>
                  {row.teacherName ?? t("class.progress.noOne")}
                </td>
                <td className="ui-table__cell" data-label={label.supervisor}>
                  {row.supervisorName ?? t("class.progress.noOne")}
                </td>
                <td className="ui-table__cell" data-label={label.mid}>
                  <HalfCell {...row.mid} total={formCount.mid} texts={texts} />
                </td>
                <td className="ui-table__cell" data-label={label.end}>
                  <HalfCell {...row.end} total={formCount.end} texts={texts} />
                </td>
                <td className="ui-table__cell" data-label={texts.warningHeader}>
                  {row.warning === "given" ? (
                    <Tag variant="warning">{texts.warning.given}</Tag>
                  ) : (
                    texts.warning[row.warning]
                  )}
                </td>
                <td className="ui-table__cell" data-label={texts.signingHeader}>
                  <SigningCell signing={row.signing} texts={texts} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page.pages > 1 ? (
        <Pagination
          navLabel={t("class.progress.pages")}
          className="teacher-progress__pages"
          status={t("class.progress.shown", { from: page.from, to: page.to, total: page.total })}
          prev={page.page > 1 ? { href: pageHref(page.page - 1), label: t("class.progress.previous") } : undefined}
          href={page.page < page.pages ? pageHref(page.page + 1) : undefined}
          label={t("class.progress.next")}
        />
      ) : null}
    </>
  );
}

/** The texts of the progress cells, translated once per table rather than once per cell (500 rows × 2 cells). */
function useProgressTexts() {
  const { t } = useTranslation("teacher");
  return useMemo(() => {
    const counts = new Map<string, string>();
    return {
      state: {
        none: t("class.progress.state.none"),
        done: t("class.progress.state.done"),
        behind: t("class.progress.state.behind"),
        open: t("class.progress.state.open"),
        closed: t("todo:overview.closed"),
      } satisfies Record<HalfProgress, string>,
      warningHeader: t("todo:overview.warning"),
      warning: {
        none: t("todo:overview.warningState.none"),
        draft: t("todo:overview.warningState.draft"),
        given: t("todo:overview.warningState.given"),
        confirmed: t("todo:overview.warningState.confirmed"),
      } satisfies Record<ProgressRow["warning"], string>,
      signingHeader: t("todo:overview.signing"),
      signing: {
        none: t("todo:overview.signingState.none"),
        started: t("todo:overview.signingState.started"),
        midConfirmed: t("todo:overview.signingState.midConfirmed"),
        waiting: t("todo:overview.signingState.waiting"),
        signed: t("todo:overview.signingState.signed"),
      } satisfies Record<SigningSummary["state"], string>,
      signer: {
        student: t("todo:overview.signer.student"),
        supervisor: t("todo:overview.signer.supervisor"),
        teacher: t("todo:overview.signer.teacher"),
      } satisfies Record<SigningSummary["waitingFor"][number], string>,
      authors: [
        { key: "student", short: "S", name: t("class.progress.authorStudent") },
        { key: "supervisor", short: "PV", name: t("class.progress.authorSupervisor") },
        { key: "teacher", short: "PL", name: t("class.progress.authorTeacher") },
      ] as const,
      allSent: t("class.progress.allSent"),
      count(sent: number, total: number): string {
        const key = `${sent}/${total}`;
        let text = counts.get(key);
        if (text === undefined) counts.set(key, (text = t("class.progress.count", { sent, total })));
        return text;
      },
    };
  }, [t]);
}

type ProgressTexts = ReturnType<typeof useProgressTexts>;

function HalfCell({
  counts,
  state,
  total,
  texts,
}: {
  counts: AuthorCounts;
  state: HalfProgress;
  total: number;
  texts: ProgressTexts;
}) {
  if (state === "none") return <>{texts.state.none}</>;
  return (
    <>
      <Tag variant={STATE_TAG[state]} className={`teacher-progress__state teacher-progress__state--${state}`}>
        {texts.state[state]}
      </Tag>
      <ul className="teacher-progress__counts">
        {texts.authors.map((author) => {
          const sent = counts[author.key];
          const complete = sent >= total;
          return (
            <li
              key={author.key}
              className={complete ? "teacher-progress__count teacher-progress__count--done" : "teacher-progress__count"}
            >
              <span className="teacher-progress__author" aria-hidden="true">
                {author.short}
              </span>
              <VisuallyHidden>{author.name}:</VisuallyHidden> {texts.count(sent, total)}
              {complete ? (
                <>
                  <span className="teacher-progress__check" aria-hidden="true">
                    {" ✓"}
                  </span>
                  <VisuallyHidden>, {texts.allSent}</VisuallyHidden>
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The signing form's state; while it waits, for whom (the student's to sign first). */
function SigningCell({ signing, texts }: { signing: SigningSummary; texts: ProgressTexts }) {
  if (signing.state === "waiting") {
    return (
      <>
        <Tag variant="warning">{texts.signing.waiting}</Tag> {signing.waitingFor.map((s) => texts.signer[s]).join(", ")}
      </>
    );
  }
  if (signing.state === "signed") return <Tag variant="success">{texts.signing.signed}</Tag>;
  return <>{texts.signing[signing.state]}</>;
}
