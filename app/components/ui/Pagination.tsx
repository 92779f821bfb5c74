import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, type To } from "react-router";
import { cx } from "./internal";

export type PaginationProps = {
  /** The next page, e.g. "?offset=40". Omit when there is nothing more to load. */
  href?: To;
  /** The next page's link text. Defaults to "Last inn flere". */
  label?: string;
  /** The previous page and its link text ("Forrige side"), when a list is paged back and forth. */
  prev?: { href: To; label: string };
  /** Makes the pages a navigation landmark with this name ("Sider i søkeresultatet"); without it, a plain block. */
  navLabel?: string;
  /** E.g. "Viser 40 av 57". */
  status?: ReactNode;
  className?: string;
};

/**
 * More of a list as plain links, which work without JavaScript: "Last inn flere" (the next page
 * added below), or, with `prev` and `navLabel`, a list's previous and next pages ("Forrige side",
 * "Neste side"). A link keeps the scroll position, or goes to its fragment ("#results-heading").
 */
export function Pagination({ href, label, prev, navLabel, status, className }: PaginationProps) {
  const { t } = useTranslation("ui");
  if (!href && !prev && !status) return null;
  const Box = navLabel ? "nav" : "div";
  // Two links written out, not made by a shared function: gzip makes the repeat almost free, and this loads with every page.
  return (
    <Box className={cx("ui-pagination", className)} aria-label={navLabel}>
      {status ? <p className="ui-pagination__status">{status}</p> : null}
      {prev ? (
        <Link
          to={prev.href}
          rel="prev"
          preventScrollReset
          className="ui-button ui-button--secondary ui-pagination__link"
        >
          {prev.label}
        </Link>
      ) : null}
      {href ? (
        <Link to={href} rel="next" preventScrollReset className="ui-button ui-button--secondary ui-pagination__link">
          {label ?? t("loadMore")}
        </Link>
      ) : null}
    </Box>
  );
}
