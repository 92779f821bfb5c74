import type { ReactNode } from "react";
import { Link } from "react-router";
import { cx } from "./internal";

export type HeaderProps = {
  /** The app's name with the institution's suffix. */
  appName: ReactNode;
  homeHref?: string;
  /** Right-hand side: signed-in user, role switch, language, log-out form. */
  children?: ReactNode;
  className?: string;
};

/** The banner landmark: the app name linking home, and optional content on the right. */
export function Header({ appName, homeHref = "/", children, className }: HeaderProps) {
  return (
    <header className={cx("app-header", "ui-header", className)}>
      <div className="ui-header__container">
        <Link to={homeHref} className="ui-header__name">
          {appName}
        </Link>
        {children ? <div className="ui-header__content">{children}</div> : null}
      </div>
    </header>
  );
}
