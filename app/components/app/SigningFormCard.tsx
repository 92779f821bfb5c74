import { useTranslation } from "react-i18next";
import { Card, LinkButton, Tag, type TagVariant } from "~/components/ui";
import type { CardState } from "~/services/signing";
import type { SigningCard } from "~/services/signing/index.server";

const VARIANT: Record<CardState, TagVariant> = {
  notCreated: "neutral",
  started: "info",
  midConfirmed: "info",
  endSaved: "info",
  partlySigned: "warning",
  signed: "success",
  submitted: "success",
};

export interface SigningFormCardProps {
  card: SigningCard;
  /** The viewer's signing-form page of the student. */
  href: string;
  /** The teacher creates the form: the card offers it while there is none. */
  mayCreate?: boolean;
}

/** Where the student's signing form stands, with the way to it (the forms page's signing-form card). */
export function SigningFormCard({ card, href, mayCreate = false }: SigningFormCardProps) {
  const { t } = useTranslation("signing");
  const names = card.signedBy.map((s) => t(`card.signers.${s}`));
  // Joined by hand: Intl.ListFormat is missing in the oldest browsers that still get the scripts.
  const list = names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} ${t("card.and")} ${names.at(-1)}`;
  const status = t(`card.state.${card.state}`, {
    date: card.state === "submitted" ? card.submittedText : card.midDateText,
    names: list,
  });
  const create = mayCreate && card.state === "notCreated";
  return (
    <Card
      title={t("card.title")}
      href={create ? undefined : href}
      actions={create ? <LinkButton to={href}>{t("card.create")}</LinkButton> : undefined}
    >
      <p>
        <span className="ui-visually-hidden">{t("card.status")}: </span>
        <Tag variant={VARIANT[card.state]}>{status}</Tag>
      </p>
    </Card>
  );
}
