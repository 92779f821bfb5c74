import type { ReactNode, Ref } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { cx } from "./internal";

export type PaginationProps = {
  /** The next page, e.g. "?offset=40". Omit when there is nothing more to load. */
  href?: string;
  /** Defaults to "Last inn flere". */
  label?: string;
  /** E.g. "Viser 40 av 57". */
  status?: ReactNode;
  /** Lets the route load the next page when the link scrolls into view. */
  linkRef?: Ref<HTMLAnchorElement>;
  className?: string;
};

/** A "Last inn flere" link that works as a plain link without JavaScript. */
export function Pagination({ href, label, status, linkRef, className }: PaginationProps) {
  const { t } = useTranslation("ui");
  if (!href && !status) return null;
  return (
    <div className={cx("ui-pagination", className)}>
      {status ? <p className="ui-pagination__status">{status}</p> : null}
      {href ? (
        <Link
          ref={linkRef}
          to={href}
          rel="next"
          preventScrollReset
          className="ui-button ui-button--secondary ui-pagination__link"
        >
          {label ?? t("loadMore")}
        </Link>
      ) : null}
    </div>
  );
}
