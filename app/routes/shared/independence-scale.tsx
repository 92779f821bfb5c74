import { useTranslation } from "react-i18next";
import { Form, useNavigate, useSubmit } from "react-router";
import { Button, LinkButton, Select, Table } from "~/components/ui";
import { useHydrated } from "~/components/ui/internal";
import { ScaleComparisonTable } from "~/components/app/ScaleComparisonTable";
import { COMPARISON_PARAMS, readScaleQuery, SCALE_ASPECTS, SCALE_LEVELS } from "~/services/answering";
import type { Route } from "./+types/independence-scale";
import "~/styles/independence-scale.css";
import enScale from "~/locales/en/scale.json";
import nbScale from "~/locales/nb/scale.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("scale", { nb: nbScale, en: enScale });

export const handle = { titleKey: "scale:title" };

/** Public, like the privacy policy: the scale holds no personal data and is read before logging in too. */
export function loader({ request }: Route.LoaderArgs) {
  return readScaleQuery(new URL(request.url).searchParams);
}

/**
 * Both views are rendered; the stylesheet shows the full table on wide screens and the two-level
 * comparison on narrow ones (display: none on the other, so assistive technology meets one).
 */
export default function IndependenceScale({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("scale");
  const { first, second, back } = loaderData;
  return (
    <div className="app-content scale-page">
      <div className="scale-page__header">
        <h1 className="scale-page__title">{t("title")}</h1>
        <div className="scale-page__close">
          <CloseControl back={back} />
        </div>
      </div>
      <div className="app-prose">
        <p className="app-lead">{t("intro")}</p>
        <p>{t("howTo")}</p>
        <p className="scale-note">{t("notRelevant")}</p>
      </div>
      <FullTable />
      <Comparison first={first} second={second} back={back} />
    </div>
  );
}

function FullTable() {
  const { t } = useTranslation("scale");
  return (
    <div className="scale-full">
      <Table
        className="scale-table"
        stack={false}
        caption={t("table.caption")}
        rowHeaders
        columns={[{ header: t("aspect") }, ...SCALE_LEVELS.map((level) => ({ header: t(`levels.${level}`) }))]}
        rows={SCALE_ASPECTS.map((aspect) => ({
          key: aspect,
          cells: [t(`aspects.${aspect}`), ...SCALE_LEVELS.map((level) => t(`statements.${level}.${aspect}`))],
        }))}
      />
    </div>
  );
}

/**
 * A GET form, so the choice works without JavaScript and lives in the URL. With JavaScript each
 * change submits at once; `replace` keeps the tab's history at one entry, which is what lets
 * window.close() close a tab the form page opened.
 */
function Comparison({ first, second, back }: { first: number; second: number; back: string | null }) {
  const { t } = useTranslation("scale");
  const submit = useSubmit();
  const options = SCALE_LEVELS.map((level, index) => ({ value: String(index), label: t(`levels.${level}`) }));
  const levels = [SCALE_LEVELS[first], SCALE_LEVELS[second]];
  return (
    <section className="scale-compare" aria-labelledby="scale-compare-heading">
      <h2 id="scale-compare-heading">{t("compare.heading")}</h2>
      <p>{t("compare.hint")}</p>
      <Form
        method="get"
        replace
        preventScrollReset
        className="scale-compare__form"
        onChange={(event) => void submit(event.currentTarget, { replace: true, preventScrollReset: true })}
      >
        {back ? <input type="hidden" name="back" value={back} /> : null}
        <div className="scale-compare__fields">
          <Select
            className="scale-compare__field"
            label={t("compare.first")}
            name={COMPARISON_PARAMS.first}
            id="scale-first"
            options={options}
            defaultValue={String(first)}
          />
          <Select
            className="scale-compare__field"
            label={t("compare.second")}
            name={COMPARISON_PARAMS.second}
            id="scale-second"
            options={options}
            defaultValue={String(second)}
          />
        </div>
        <Button variant="secondary">{t("compare.submit")}</Button>
      </Form>

      <ScaleComparisonTable
        caption={t("compare.caption", { first: t(`levels.${levels[0]}`), second: t(`levels.${levels[1]}`) })}
        aspectHeader={t("aspect")}
        levels={[t(`levels.${levels[0]}`), t(`levels.${levels[1]}`)]}
        aspects={SCALE_ASPECTS.map((aspect) => ({
          key: aspect,
          name: t(`aspects.${aspect}`),
          statements: [t(`statements.${levels[0]}.${aspect}`), t(`statements.${levels[1]}.${aspect}`)],
        }))}
      />
    </section>
  );
}

/**
 * The page opens in a tab of its own, so "close" closes that tab. Browsers let a script close
 * only a tab that was opened by a link or script and not navigated since; otherwise this goes
 * back, or to `back` when there is no history. Without JavaScript it is a link to `back`.
 */
function CloseControl({ back }: { back: string | null }) {
  const { t } = useTranslation("scale");
  const hydrated = useHydrated();
  const navigate = useNavigate();
  if (!hydrated) {
    return (
      <LinkButton variant="secondary" to={back ?? "/"}>
        {t("back")}
      </LinkButton>
    );
  }
  const close = () => {
    window.close();
    // A refused close() leaves the window open without an error; give a permitted one time to happen.
    window.setTimeout(() => {
      if (window.closed) return;
      if (window.history.length > 1) void navigate(-1);
      else void navigate(back ?? "/");
    }, 150);
  };
  return (
    <Button type="button" variant="secondary" onClick={close}>
      {t("close")}
    </Button>
  );
}
