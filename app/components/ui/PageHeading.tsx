import type { ReactNode } from "react";
import { cx } from "./internal";

export type PageHeadingProps = {
  children: ReactNode;
  /** Context above the heading, e.g. the class or student; read as part of the h1. */
  caption?: ReactNode;
  size?: "xl" | "l";
  id?: string;
  className?: string;
};

/** The page's single h1. */
export function PageHeading({ children, caption, size = "l", id, className }: PageHeadingProps) {
  return (
    <h1 id={id} className={cx("ui-page-heading", `ui-page-heading--${size}`, className)}>
      {caption ? <span className="ui-page-heading__caption">{caption} </span> : null}
      {children}
    </h1>
  );
}
