import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ConfirmActions } from "~/components/app/ConfirmStep";
import { kindKey } from "~/components/app/RetentionRules";
import { AlertBanner, CheckboxGroup, ErrorSummary, PageHeading, Table } from "~/components/ui";
import { ERASED_NAME, type RecordKind } from "~/services/records";

export interface ErasurePageProps {
  person: { name: string; email: string; erased: boolean };
  isSelf: boolean;
  userPage: string;
  goes: { kind: RecordKind | "account" | "sessions"; count: number }[];
  kept: { kind: RecordKind; count: number; until: string }[];
  /** The refused post's reply (the box not ticked, or oneself). */
  result?: SubmissionResult<string[]>;
}

const BOX_ID = "erase-understood";

/** The erasure's page: what goes now, what is kept until when, then the box and the button; or why not. */
export function ErasurePage({ person, isSelf, userPage, goes, kept, result }: ErasurePageProps) {
  const { t } = useTranslation("records");
  const boxError = result?.error?.understood?.[0];
  const formError = result?.error?.[""]?.[0];
  const errors = [
    ...(boxError ? [{ fieldId: BOX_ID, message: t(boxError) }] : []),
    ...(formError ? [{ fieldId: "erase-heading", message: t(formError) }] : []),
  ];
  const count = (n: number) => String(n);
  return (
    <div className="app-content">
      <ErrorSummary errors={errors} />
      <p>
        <Link to={userPage}>{person.name}</Link>
      </p>
      <PageHeading caption={t("erase.caption")} id="erase-heading">
        {t("erase.heading", { name: person.name })}
      </PageHeading>
      {person.erased ? (
        <AlertBanner variant="info">{t("erase.already")}</AlertBanner>
      ) : isSelf ? (
        <AlertBanner variant="warning">{t("erase.self")}</AlertBanner>
      ) : (
        <>
          <p>{t("erase.intro", { erased: ERASED_NAME })}</p>
          <>
            <h2 id="goes-heading">{t("erase.goesHeading")}</h2>
            {goes.length === 0 ? (
              <p>{t("erase.goesNone")}</p>
            ) : (
              <Table
                caption={t("erase.goesHeading")}
                captionHidden
                rowHeaders
                columns={[{ header: t("erase.kind") }, { header: t("erase.count"), numeric: true }]}
                rows={goes.map((g) => ({ key: g.kind, cells: [t(kindKey(g.kind)), count(g.count)] }))}
              />
            )}
          </>
          <>
            <h2 id="kept-heading">{t("erase.keptHeading")}</h2>
            {kept.length === 0 ? (
              <p>{t("erase.keptNone")}</p>
            ) : (
              <Table
                caption={t("erase.keptHeading")}
                captionHidden
                rowHeaders
                columns={[
                  { header: t("erase.kind") },
                  { header: t("erase.count"), numeric: true },
                  { header: t("erase.until"), numeric: true },
                ]}
                rows={kept.map((k) => ({ key: k.kind, cells: [t(kindKey(k.kind)), count(k.count), k.until] }))}
              />
            )}
          </>
          <ConfirmActions
            fields={{ intent: "erase" }}
            confirm={t("erase.confirm", { name: person.name })}
            back={{ label: t("erase.back"), href: userPage }}
          >
            <CheckboxGroup
              legend={t("erase.legend")}
              legendSize="s"
              name="understood"
              id={BOX_ID}
              options={[{ value: "yes", label: t("erase.understood") }]}
              error={boxError ? t(boxError) : undefined}
            />
          </ConfirmActions>
        </>
      )}
    </div>
  );
}
