import type { ReactNode } from "react";

export type VisuallyHiddenProps = {
  children: ReactNode;
  /** The element to render; a span unless the content is block-level. */
  as?: "span" | "div" | "p" | "h2" | "h3";
  id?: string;
};

/** Content for screen readers only; stays in the accessibility tree. */
export function VisuallyHidden({ children, as: Tag = "span", id }: VisuallyHiddenProps) {
  return (
    <Tag className="ui-visually-hidden" id={id}>
      {children}
    </Tag>
  );
}
