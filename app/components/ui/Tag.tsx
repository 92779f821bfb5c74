import type { ReactNode } from "react";
import { cx } from "./internal";

export type TagVariant = "neutral" | "info" | "success" | "warning" | "error";

export type TagProps = {
  children: ReactNode;
  variant?: TagVariant;
  className?: string;
};

/** A short status label, e.g. "Sendt", "Utkast", "Deaktivert". */
export function Tag({ children, variant = "neutral", className }: TagProps) {
  return <strong className={cx("ui-tag", `ui-tag--${variant}`, className)}>{children}</strong>;
}

export type BadgeProps = {
  count: number;
  /** Read after the number by screen readers, e.g. "nye varsler". */
  label?: string;
  className?: string;
};

/** A small count, e.g. next to a menu item. */
export function Badge({ count, label, className }: BadgeProps) {
  return (
    <span className={cx("ui-badge", className)}>
      {count}
      {label ? <span className="ui-visually-hidden"> {label}</span> : null}
    </span>
  );
}
