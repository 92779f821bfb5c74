import { useTranslation } from "react-i18next";
import type { KeyOf } from "~/locales/keys";
import type { RecordKind, RetentionRule } from "~/services/records";

/** What a kind of record is called ("Svar og kommentarer"); the erasure plan adds the account and its sessions. */
export function kindKey(kind: RecordKind | "account" | "sessions"): KeyOf<"records"> {
  return `kinds.${kind}`;
}

/** A rule's period in words, by its action and event ("slettes 365 dager etter at klassen er slutt"). */
export function ruleKey(rule: Pick<RetentionRule, "action" | "from">): KeyOf<"records"> {
  return `rule.${rule.action}.${rule.from}`;
}

/**
 * The records schedule in words, one line a kind ("Svar og kommentarer: slettes 365 dager etter at
 * klassen er slutt"), from the institution's file or the defaults: the privacy page's list.
 */
export function RetentionRuleList({ rules }: { rules: readonly RetentionRule[] }) {
  const { t } = useTranslation("records");
  return (
    <ul>
      {rules.map((rule) => (
        <li key={rule.kind}>
          {t(kindKey(rule.kind))}: {t(ruleKey(rule), { count: rule.keepDays })}
        </li>
      ))}
    </ul>
  );
}
