import { useId, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { ClassDetails, SchemesTable } from "~/components/app/ClassDetails";
import { PeopleTable } from "~/components/app/PeopleTable";
import { AlertBanner, Button, LinkButton, PageHeading, Tag, VisuallyHidden, type TagVariant } from "~/components/ui";
import { classHeader, classHeaderView } from "~/services/admin/index.server";
import type { Db } from "~/services/platform/db/client.server";
import { getDb } from "~/services/platform/db/index.server";
import { deadlineText, formDue } from "~/services/placements";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import {
  requireClassAccess,
  requireClassTeacher,
  halfProgress,
  joinClassAsTeacher,
  leaveClass,
  progressPage,
  readSort,
  teacherClassPage,
  type AuthorCounts,
  type HalfProgress,
  type ProgressPage,
  type ProgressRow,
  type SigningSummary,
  type SortDirection,
  type SortKey,
} from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { osloDate } from "~/services/platform/semesters";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/class";
import enTodo from "~/locales/en/todo.json";
import nbTodo from "~/locales/nb/todo.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

import "~/styles/overviews.css";

provideNamespace("todo", { nb: nbTodo, en: enTodo });

export const handle = { titleKey: "teacher:class.title" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classId = idParam(params.classId);
  const db = await getDb();
  const access = await requireClassAccess(db, { userId: session.user.id, role: ROLE.Teacher }, classId);
  const query = new URL(request.url).searchParams;
  const { sort, dir } = readSort(query);
  const page = await teacherClassPage(db, { classId, viewerUserId: session.user.id, access, sort, dir });
  if (!page) notFound();
  const { header, half, members, formCount } = page;
  const today = osloDate(new Date());
  // Judged per student against their own deadline: a confirmed mid-semester part closes that half.
  const state = (counts: AuthorCounts, isMid: boolean, midConfirmed: boolean): HalfProgress =>
    halfProgress(counts, isMid ? formCount.mid : formCount.end, formDue(isMid, header, midConfirmed, today));
  return {
    header: classHeaderView(header, getLanguage(context)),
    deadline: { half: half.half, text: half.deadline ? deadlineText(half.deadline) : null },
    ended: page.ended,
    schemes: page.schemes.map((scheme) => ({
      assignmentId: scheme.assignmentId,
      isMidSemester: scheme.isMidSemester,
      forms: scheme.forms
        .filter((f) => !f.deleted)
        .map((f) => ({ formId: f.formId, name: f.name, isMainForm: f.isMainForm })),
    })),
    formCount,
    sort,
    dir,
    // An outsider (who may see the class's forms) gets nothing about its people: their names and addresses are for those who work with them.
    members: members
      ? {
          myStudents: members.myStudents.map((s) => ({
            userId: s.userId,
            displayName: s.displayName,
            email: s.email,
            isActive: s.isActive,
            advisorName: s.advisorName,
          })),
          supervisors: members.supervisors,
          // One page of the sorted overview: the page costs the same whatever the class size.
          progress: progressView(progressPage(members.progress, query), state),
        }
      : null,
  };
}

function progressView(
  shown: ProgressPage<ProgressRow>,
  state: (counts: AuthorCounts, isMid: boolean, midConfirmed: boolean) => HalfProgress,
) {
  const { rows, ...page } = shown;
  return {
    page,
    rows: rows.map((row) => ({
      userId: row.userId,
      displayName: row.displayName,
      isActive: row.isActive,
      teacherName: row.teacherName,
      advisorName: row.advisorName,
      mid: { counts: row.mid, state: state(row.mid, true, row.midConfirmed) },
      end: { counts: row.end, state: state(row.end, false, row.midConfirmed) },
      warning: row.warning,
      signing: row.signing,
    })),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classId = idParam(params.classId);
  const db = await getDb();
  const viewer = { userId: session.user.id, role: ROLE.Teacher };
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const self = `/teacher/class/${classId}`;

  if (intent === "join") {
    await requireClassAccess(db, viewer, classId);
    const outcome = await joinClassAsTeacher(db, { classId, userId: session.user.id, ip: clientAddress(request) });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      if (outcome.error === "ended") return data({ error: "teacher:errors.ended" }, { status: 400 });
    }
    return redirectWithFlash(self, {
      type: outcome.ok ? "success" : "info",
      key: outcome.ok ? "teacher:class.joined" : "teacher:class.alreadyJoined",
      values: { subject: await subjectOf(db, classId) },
    });
  }

  if (intent === "leave") {
    await requireClassTeacher(db, viewer, classId);
    const outcome = await leaveClass(db, { classId, userId: session.user.id, ip: clientAddress(request) });
    if (!outcome.ok) notFound();
    const subject = await subjectOf(db, classId);
    const { released } = outcome;
    return redirectWithFlash(
      "/teacher",
      released.length === 0
        ? { type: "success", key: "teacher:class.left", values: { subject } }
        : {
            type: "success",
            key: "teacher:class.leftReleased",
            values: { subject, count: released.length, names: released.map((s) => s.displayName).join(", ") },
          },
    );
  }

  throw new Response("Bad Request", { status: 400 });
}

async function subjectOf(db: Db, classId: number): Promise<string> {
  const header = await classHeader(db, classId);
  return header ? `${header.subjectCode} ${header.subjectName}` : "";
}

type LoaderData = Route.ComponentProps["loaderData"];
type ProgressRowData = NonNullable<LoaderData["members"]>["progress"]["rows"][number];
type ProgressPageData = NonNullable<LoaderData["members"]>["progress"]["page"];

const STATE_TAG: Record<Exclude<HalfProgress, "none">, TagVariant> = {
  done: "success",
  behind: "warning",
  open: "neutral",
  closed: "neutral",
};

export default function TeacherClass({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("teacher");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { header, deadline, ended, schemes, members } = loaderData;
  const classId = header.classId;
  const peopleText = {
    nameHeader: t("class.people.name"),
    emailHeader: t("class.people.email"),
    deactivatedLabel: t("class.people.deactivated"),
  };
  const released = members?.myStudents ?? [];

  return (
    <div className="app-content">
      <p>
        <Link to="/teacher">{t("class.backToHome")}</Link>
      </p>
      <PageHeading caption={header.periodName}>
        {header.subjectCode} {header.subjectName}
      </PageHeading>

      <ClassDetails header={header} deadline={deadline} />

      {members ? null : (
        <section aria-labelledby="join-heading">
          <h2 id="join-heading">{t("class.outsider.heading")}</h2>
          {actionData?.error ? <AlertBanner variant="error">{t(actionData.error as never)}</AlertBanner> : null}
          {ended ? (
            <p>{t("class.outsider.ended")}</p>
          ) : (
            <>
              <p>{t("class.outsider.text")}</p>
              <Form method="post">
                <input type="hidden" name="intent" value="join" />
                <Button disabled={busy}>{t("class.outsider.join")}</Button>
              </Form>
            </>
          )}
        </section>
      )}

      {members ? (
        <>
          <h2 id="mine">{t("class.mine.heading", { count: members.myStudents.length })}</h2>
          <PeopleTable
            {...peopleText}
            caption={t("class.mine.caption")}
            empty={t("class.mine.none")}
            people={members.myStudents}
            href={(s) => `/teacher/class/${classId}/student/${s.userId}`}
            columns={[{ header: t("class.mine.supervisor"), cell: (s) => s.advisorName ?? t("class.people.none") }]}
          />
          <p>
            <LinkButton variant="secondary" to={`/teacher/class/${classId}/students/add`}>
              {t("class.mine.add")}
            </LinkButton>
          </p>

          <h2 id="supervisors">{t("class.supervisors.heading", { count: members.supervisors.length })}</h2>
          <PeopleTable
            {...peopleText}
            caption={t("class.supervisors.caption")}
            empty={t("class.supervisors.none")}
            people={members.supervisors}
            href={(s) => `/teacher/class/${classId}/advisor/${s.userId}`}
            columns={[
              {
                header: t("class.supervisors.how"),
                cell: (s) => (s.attached ? t("class.supervisors.addedToClass") : t("class.supervisors.invited")),
              },
              { header: t("class.supervisors.students"), numeric: true, cell: (s) => s.studentCount },
            ]}
          />
          {members.supervisors.some((s) => !s.attached) ? <p>{t("class.supervisors.invitedHint")}</p> : null}
          <p>
            <LinkButton variant="secondary" to={`/teacher/class/${classId}/supervisors/add`}>
              {t("class.supervisors.add")}
            </LinkButton>
          </p>

          <h2 id="progress">{t("class.progress.heading")}</h2>
          {members.progress.page.total === 0 ? (
            <p>{t("class.progress.none")}</p>
          ) : (
            <>
              <p>{t("class.progress.intro")}</p>
              <ProgressTable
                classId={classId}
                rows={members.progress.rows}
                page={members.progress.page}
                formCount={loaderData.formCount}
                sort={loaderData.sort}
                dir={loaderData.dir}
              />
            </>
          )}
        </>
      ) : null}

      <h2 id="schemes">{t("common:schemes.heading")}</h2>
      {/* The forms to read are for the class's teachers (an outsider joins first). */}
      <SchemesTable
        schemes={schemes}
        formHref={
          members
            ? (formId) => `/teacher/form/${formId}?${new URLSearchParams({ from: `/teacher/class/${classId}` })}`
            : undefined
        }
      />

      {members ? (
        <section aria-labelledby="leave-heading">
          <h2 id="leave-heading">{t("class.leave.heading")}</h2>
          <p>{t("class.leave.text")}</p>
          {released.length > 0 ? (
            <p>
              {t("class.leave.released", {
                count: released.length,
                names: released.map((s) => s.displayName).join(", "),
              })}
            </p>
          ) : null}
          {/* Leaving asks first, on a page of its own that names the students who lose their teacher. */}
          <p>
            <LinkButton variant="warning" to={`/teacher/class/${classId}/leave`}>
              {t("class.leave.submit")}
            </LinkButton>
          </p>
        </section>
      ) : null}
    </div>
  );
}

const COLUMNS: SortKey[] = ["name", "teacher", "supervisor", "mid", "end"];

/**
 * The progress overview: one row per student, sorted by links in the column headers (so it works
 * without JavaScript), the sorted column marked with aria-sort.
 */
function ProgressTable({
  classId,
  rows,
  page,
  formCount,
  sort,
  dir,
}: {
  classId: number;
  rows: ProgressRowData[];
  page: ProgressPageData;
  formCount: { mid: number; end: number };
  sort: SortKey;
  dir: SortDirection;
}) {
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
  const href = (key: SortKey) => {
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
                  <Link to={href(key)} preventScrollReset className="teacher-progress__sort">
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
                  <Link to={`/teacher/class/${classId}/student/${row.userId}`}>{row.displayName}</Link>
                </th>
                <td className="ui-table__cell" data-label={label.teacher}>
                  {row.teacherName ?? t("class.progress.noOne")}
                </td>
                <td className="ui-table__cell" data-label={label.supervisor}>
                  {row.advisorName ?? t("class.progress.noOne")}
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
        <nav className="ui-pagination teacher-progress__pages" aria-label={t("class.progress.pages")}>
          <p className="ui-pagination__status">
            {t("class.progress.shown", { from: page.from, to: page.to, total: page.total })}
          </p>
          {page.page > 1 ? (
            <Link
              to={pageHref(page.page - 1)}
              rel="prev"
              preventScrollReset
              className="ui-button ui-button--secondary ui-pagination__link"
            >
              {t("class.progress.previous")}
            </Link>
          ) : null}
          {page.page < page.pages ? (
            <Link
              to={pageHref(page.page + 1)}
              rel="next"
              preventScrollReset
              className="ui-button ui-button--secondary ui-pagination__link"
            >
              {t("class.progress.next")}
            </Link>
          ) : null}
        </nav>
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
        advisor: t("todo:overview.signer.advisor"),
        teacher: t("todo:overview.signer.teacher"),
      } satisfies Record<SigningSummary["waitingFor"][number], string>,
      authors: [
        { key: "student", short: "S", name: t("class.progress.authorStudent") },
        { key: "advisor", short: "PV", name: t("class.progress.authorAdvisor") },
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
