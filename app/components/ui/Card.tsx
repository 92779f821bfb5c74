import type { ReactNode } from "react";
import { Link } from "react-router";
import { cx, headingTag, type HeadingLevel } from "./internal";

export type CardProps = {
  title: ReactNode;
  headingLevel?: HeadingLevel;
  /** Makes the title a link; the whole card becomes a larger click target (not a larger tab stop). */
  href?: string;
  children?: ReactNode;
  /** Buttons or forms at the foot of the card, e.g. a "choose this role" form post. */
  actions?: ReactNode;
  className?: string;
};

export function Card({ title, headingLevel = 2, href, children, actions, className }: CardProps) {
  const Heading = headingTag(headingLevel);
  return (
    <div className={cx("ui-card", href && "ui-card--clickable", className)}>
      <Heading className="ui-card__title">
        {href ? (
          <Link to={href} className="ui-card__link">
            {title}
          </Link>
        ) : (
          title
        )}
      </Heading>
      {children ? <div className="ui-card__body">{children}</div> : null}
      {actions ? <div className="ui-card__actions">{actions}</div> : null}
    </div>
  );
}
