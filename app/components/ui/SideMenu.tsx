import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { cx, headingTag, type HeadingLevel } from "./internal";

export type SideMenuItem = {
  href: string;
  label: ReactNode;
  /** Marks the item as the current page; otherwise decided by comparing with `currentPath`. */
  current?: boolean;
};

export type SideMenuGroup = {
  heading?: ReactNode;
  items: SideMenuItem[];
};

export type SideMenuProps = {
  groups: SideMenuGroup[];
  /** The current pathname, e.g. from useLocation(). */
  currentPath?: string;
  /** The navigation landmark's name; defaults to "Hovedmeny". */
  label?: string;
  headingLevel?: HeadingLevel;
  /** Rendered below the lists in both copies: forms such as log-out and role switch. */
  extra?: ReactNode;
  className?: string;
};

/**
 * The side menu. On wide screens it is always open; on narrow screens it folds away behind a
 * native `<details>` "Meny", which needs no JavaScript. (A closed `<details>` cannot be forced
 * open by CSS in older browsers, so the lists are rendered twice and CSS shows one copy:
 * `display: none` keeps the hidden copy out of the accessibility tree.)
 */
export function SideMenu({ groups, currentPath, label, headingLevel = 2, extra, className }: SideMenuProps) {
  const { t } = useTranslation("ui");
  const baseId = useId();
  const Heading = headingTag(headingLevel);

  const lists = (copy: string) =>
    groups.map((group, groupIndex) => {
      const headingId = `${baseId}-${copy}-${groupIndex}`;
      return (
        <div className="ui-side-menu__group" key={groupIndex}>
          {group.heading ? (
            <Heading className="ui-side-menu__heading" id={headingId}>
              {group.heading}
            </Heading>
          ) : null}
          <ul className="ui-side-menu__list" aria-labelledby={group.heading ? headingId : undefined}>
            {group.items.map((item) => {
              const current = item.current ?? item.href === currentPath;
              return (
                <li key={item.href} className={cx("ui-side-menu__item", current && "ui-side-menu__item--current")}>
                  <Link to={item.href} className="ui-side-menu__link" aria-current={current ? "page" : undefined}>
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      );
    });

  return (
    <nav className={cx("ui-side-menu", className)} aria-label={label ?? t("mainMenu")}>
      <details className="ui-side-menu__collapsible">
        <summary className="ui-side-menu__toggle">{t("menu")}</summary>
        <div className="ui-side-menu__content">
          {lists("narrow")}
          {extra}
        </div>
      </details>
      <div className="ui-side-menu__wide">
        {lists("wide")}
        {extra}
      </div>
    </nav>
  );
}
