import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigate, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import { href } from "~/components/href";
import { AlertBanner, Button, ButtonGroup, LinkButton, SummaryList, Table } from "~/components/ui";
import { Dialog } from "~/components/ui/Dialog";
import { createNextSemester, listSemesters, type SemesterRow } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { formatDay } from "~/services/platform/semesters";
import type { Route } from "./+types/semesters";
import enAdminSemesters from "~/locales/en/adminSemesters.json";
import nbAdminSemesters from "~/locales/nb/adminSemesters.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("adminSemesters", { nb: nbAdminSemesters, en: enAdminSemesters });

export const handle = { titleKey: "adminSemesters:list.title" };

/** The create dialog is part of this page's URL: a modal has an address of its own, so it can be linked to and works without JS. */
const CREATE_PARAM = "create";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const language = getLanguage(context);
  const lists = await listSemesters(await getDb(), new Date());
  const day = (iso: string) => formatDay(iso, language);
  const withDates = (rows: SemesterRow[]) => rows.map((r) => ({ ...r, start: day(r.startDate), end: day(r.endDate) }));
  return {
    future: withDates(lists.future),
    current: withDates(lists.current),
    past: withDates(lists.past),
    next: lists.next ? { ...lists.next, start: day(lists.next.startDate), end: day(lists.next.endDate) } : null,
    createOpen: new URL(request.url).searchParams.get(CREATE_PARAM) === "next",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const formData = await readFormData(request);
  if (formData.get("intent") !== "create-next") {
    return data({ error: { key: "adminSemesters:errors.unknownIntent", values: {} } }, { status: 400 });
  }
  const result = await createNextSemester(await getDb(), {
    actorUserId: session.user.id,
    ip: clientAddress(request),
    today: new Date(),
  });
  if (!result.ok) {
    return data(
      { error: { key: `adminSemesters:errors.${result.reason}`, values: { name: result.name ?? "" } } },
      { status: 409 },
    );
  }
  return redirectWithFlash(href("/admin/semesters/:semesterId", { semesterId: String(result.semester.id) }), {
    type: "success",
    key: "adminSemesters:create.created",
    values: { name: result.semester.name },
  });
}

/** After a refused create (409) the lists are stale too: reload them, which also closes the dialog. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

function SemesterTable({ caption, rows }: { caption: string; rows: Route.ComponentProps["loaderData"]["past"] }) {
  const { t } = useTranslation("adminSemesters");
  if (rows.length === 0) return <p>{t("list.none")}</p>;
  return (
    <Table
      caption={caption}
      captionHidden
      rowHeaders
      columns={[
        { header: t("list.semester") },
        { header: t("list.dates") },
        { header: t("list.classes"), numeric: true },
        { header: t("list.students"), numeric: true },
      ]}
      rows={rows.map((row) => ({
        key: String(row.id),
        cells: [
          <Link to={href("/admin/semesters/:semesterId", { semesterId: String(row.id) })}>{row.name}</Link>,
          t("list.dateRange", { start: row.start, end: row.end }),
          row.classCount,
          row.studentCount,
        ],
      }))}
    />
  );
}

export default function Semesters({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminSemesters");
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { next } = loaderData;
  const error = actionData?.error;
  return (
    <div className="app-content">
      <h1>{t("list.title")}</h1>
      {error ? (
        <AlertBanner variant="error" role="alert">
          {t(error.key, error.values)}
        </AlertBanner>
      ) : null}
      <p className="app-lead">{t("list.intro")}</p>

      <section aria-labelledby="next-semester-heading">
        <h2 id="next-semester-heading">{t("create.heading")}</h2>
        {next ? (
          <>
            <p>{t("create.next", { name: next.name, start: next.start, end: next.end })}</p>
            <p>
              <LinkButton to={`?${CREATE_PARAM}=next`} preventScrollReset>
                {t("create.open")}
              </LinkButton>
            </p>
          </>
        ) : (
          <p>{t("create.futureExists")}</p>
        )}
      </section>

      {next && loaderData.createOpen ? (
        <Dialog
          title={t("create.dialogTitle", { name: next.name })}
          closeHref="/admin/semesters"
          onClose={() => void navigate("/admin/semesters", { preventScrollReset: true, replace: true })}
        >
          <SummaryList
            rows={[
              { key: t("create.name"), value: next.name },
              { key: t("create.start"), value: next.start },
              { key: t("create.end"), value: next.end },
            ]}
          />
          <p>{t("create.explanation")}</p>
          <Form method="post" action="/admin/semesters">
            <ButtonGroup>
              <Button name="intent" value="create-next" disabled={navigation.state === "submitting"}>
                {t("create.submit", { name: next.name })}
              </Button>
              <Link to="/admin/semesters" preventScrollReset>
                {t("create.cancel")}
              </Link>
            </ButtonGroup>
          </Form>
        </Dialog>
      ) : null}

      <h2>{t("list.future")}</h2>
      <SemesterTable caption={t("list.future")} rows={loaderData.future} />
      <h2>{t("list.current")}</h2>
      <SemesterTable caption={t("list.current")} rows={loaderData.current} />
      <h2>{t("list.past")}</h2>
      <SemesterTable caption={t("list.past")} rows={loaderData.past} />
    </div>
  );
}
