import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { RetentionPreviewPage, type RetentionPreviewView } from "~/components/app/RetentionPreview";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enRecords from "~/locales/en/records.json";
import nbRecords from "~/locales/nb/records.json";
import { ROLE } from "~/services/identity";
import { requireRole } from "~/services/identity/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { currentInstitution } from "~/services/platform/institution.server";
import { formatDayTime } from "~/services/platform/semesters";
import { previewRetention } from "~/services/records/index.server";
import { RECORD_KINDS, retentionRules } from "~/services/records";
import type { Route } from "./+types/retention";

provideNamespace("records", { nb: nbRecords, en: enRecords });

export const handle = { titleKey: "records:retention.title" };

/** Classes shown on one page of the per-class table. */
export const CLASSES_PER_PAGE = 20;

/** The page asked for (?page=2); anything that is not a page number is the first page. */
function pageParam(url: URL): number {
  const text = url.searchParams.get("page");
  return text && /^[1-9]\d{0,4}$/.test(text) ? Number(text) : 1;
}

/**
 * What the next daily retention run will delete or anonymise, before it happens (docs/rules/records.md):
 * per kind with its rule, per class, when the run next may run and what the last one did. Read-only:
 * the run itself is the daily schedule's, never a button here.
 */
export async function loader({ request, context }: Route.LoaderArgs): Promise<RetentionPreviewView> {
  requireRole(request, context, ROLE.Admin);
  const url = new URL(request.url);
  const language = getLanguage(context);
  const rules = retentionRules(currentInstitution());
  const preview = await previewRetention(await getDb(), rules, new Date());
  const number = (n: number) => n.toLocaleString(language === "nb" ? "nb-NO" : "en-GB");
  const pages = Math.max(1, Math.ceil(preview.byClass.length / CLASSES_PER_PAGE));
  const page = Math.min(pageParam(url), pages);
  const pageHref = (n: number) => `${href("/admin/retention")}${n > 1 ? `?page=${n}` : ""}#classes-heading`;
  return {
    kinds: rules.map((rule) => ({
      rule,
      count: preview.totals[rule.kind],
      countText: number(preview.totals[rule.kind]),
    })),
    classes: preview.byClass.slice((page - 1) * CLASSES_PER_PAGE, page * CLASSES_PER_PAGE).map((c) => ({
      key: String(c.classId),
      href: href("/admin/class/:classId", { classId: String(c.classId) }),
      subject: `${c.subjectCode} ${c.subjectName}`,
      semester: c.semesterName,
      counts: RECORD_KINDS.flatMap((kind) => (c.counts[kind] ? [{ kind, countText: number(c.counts[kind]) }] : [])),
    })),
    page,
    pages,
    previous: page > 1 ? pageHref(page - 1) : null,
    next: page < pages ? pageHref(page + 1) : null,
    nextRun: preview.nextRunAfter ? formatDayTime(new Date(preview.nextRunAfter), language) : null,
    lastRun: preview.lastRun
      ? {
          when: formatDayTime(new Date(preview.lastRun.at), language),
          counts: RECORD_KINDS.flatMap((kind) =>
            preview.lastRun?.totals[kind] ? [{ kind, countText: number(preview.lastRun.totals[kind]) }] : [],
          ),
        }
      : null,
  };
}

export default function Retention({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("records");
  return (
    <div className="app-content">
      <h1>{t("retention.title")}</h1>
      <p className="app-lead">{t("retention.intro")}</p>
      <RetentionPreviewPage {...loaderData} />
    </div>
  );
}
