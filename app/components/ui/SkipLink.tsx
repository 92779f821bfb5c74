import { useTranslation } from "react-i18next";

export type SkipLinkProps = {
  /** The main element's id, with `tabIndex={-1}` on it. */
  href?: string;
};

/** The first focusable element on every page; visible when focused. */
export function SkipLink({ href = "#main" }: SkipLinkProps) {
  const { t } = useTranslation("ui");
  return (
    <a href={href} className="ui-skip-link">
      {t("skipLink")}
    </a>
  );
}
