import type { ComponentProps, ReactNode } from "react";
import { Link, type LinkProps } from "react-router";
import { cx } from "./internal";

export type ButtonVariant = "primary" | "secondary" | "warning" | "link";

function buttonClass(variant: ButtonVariant, className?: string) {
  return cx("ui-button", variant !== "primary" && `ui-button--${variant}`, className);
}

export type ButtonProps = Omit<ComponentProps<"button">, "style"> & {
  variant?: ButtonVariant;
};

/**
 * A native button. `type` defaults to "submit" so it works in a plain form post;
 * `name`/`value` pass through, e.g. `name="intent" value="send"` to tell forms apart.
 */
export function Button({ variant = "primary", type = "submit", className, ...rest }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, className)} {...rest} />;
}

export type LinkButtonProps = Omit<LinkProps, "style" | "className"> & {
  variant?: Exclude<ButtonVariant, "link">;
  className?: string;
};

/** A link (navigation) that looks like a button. It stays a link for assistive technology. */
export function LinkButton({ variant = "primary", className, ...rest }: LinkButtonProps) {
  return <Link className={buttonClass(variant, className)} draggable={false} {...rest} />;
}

export type ButtonGroupProps = { children: ReactNode; className?: string };

/** Lays out buttons and links side by side, stacked on narrow screens. */
export function ButtonGroup({ children, className }: ButtonGroupProps) {
  return <div className={cx("ui-button-group", className)}>{children}</div>;
}
