import { useTranslation } from "react-i18next";
import { Tag } from "~/components/ui";
import "~/styles/answers.css";

export type RoleBadgeKind = "S" | "PV" | "PL";

const ROLE_KEY = { S: "badges.student", PV: "badges.supervisor", PL: "badges.teacher" } as const;

/** The short role of whoever wrote something: S student, PL practice teacher, PV supervisor (docs/glossary.md). */
export function RoleBadge({ kind }: { kind: RoleBadgeKind }) {
  const { t } = useTranslation("answers");
  return (
    <Tag variant={kind === "S" ? "neutral" : "info"} className="role-badge">
      <abbr title={t(ROLE_KEY[kind])}>{kind}</abbr>
    </Tag>
  );
}
