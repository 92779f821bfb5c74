import { useTranslation } from "react-i18next";
import { SummaryList, Tag, type TagVariant } from "~/components/ui";
import { headingTag, type HeadingLevel } from "~/components/ui/internal";
import type { WarningForView } from "~/services/warnings/index.server";
import { WARNING_FIELDS, type WarningState, type WarningText } from "~/services/warnings";
import "~/styles/warnings.css";

type ExistingState = Exclude<WarningState, "none">;

const STATE_TAG: Record<ExistingState, TagVariant> = { draft: "neutral", given: "warning", confirmed: "success" };

export function WarningStateTag({ state }: { state: ExistingState }) {
  const { t } = useTranslation("warnings");
  return <Tag variant={STATE_TAG[state]}>{t(`state.${state}`)}</Tag>;
}

/** The three texts of a warning, each under its heading, line breaks as written. */
export function WarningContent({ text, headingLevel = 2 }: { text: WarningText; headingLevel?: HeadingLevel }) {
  const { t } = useTranslation("warnings");
  const Heading = headingTag(headingLevel);
  return (
    <div className="warning-content">
      {WARNING_FIELDS.map((field) => (
        <div key={field} className="warning-content__part">
          <Heading className="warning-content__heading">{t(`fields.${field}.label`)}</Heading>
          <p className="warning-content__text">{text[field]}</p>
        </div>
      ))}
    </div>
  );
}

/** Where the warning stands, with its dates (created, updated, given, confirmed: each step is someone's act, shown to both sides). */
export function WarningFacts({ warning }: { warning: WarningForView }) {
  const { t } = useTranslation("warnings");
  return (
    <SummaryList
      rows={[
        { key: t("facts.state"), value: <WarningStateTag state={warning.state} /> },
        { key: t("facts.created"), value: warning.createdText },
        { key: t("facts.updated"), value: warning.updatedText },
        {
          key: t("facts.given"),
          value: warning.givenText
            ? t("facts.givenBy", { date: warning.givenText, teacher: warning.teacherName })
            : t("facts.notYet"),
        },
        { key: t("facts.confirmed"), value: warning.confirmedText ?? t("facts.notYet") },
      ]}
    />
  );
}
