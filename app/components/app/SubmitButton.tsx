import type { MouseEvent } from "react";
import { useNavigation } from "react-router";
import type { ButtonProps } from "~/components/ui";

/**
 * A form's submit button that never loses a press.
 *
 * - The server renders it as a plain `<button type="submit">`, never disabled for being busy: a
 *   press before the page's script has started posts the form as plain HTML, and one during
 *   hydration is React Router's to send (the page must not move it when it hydrates either; see
 *   docs/architecture.md).
 * - Once a post of the page has started, the button that sent it says it is busy (aria-busy, and an
 *   ellipsis after its label) and every SubmitButton refuses a second press (aria-disabled, the click
 *   cancelled) until the post has landed: no double post. They are not `disabled`, which would take
 *   the keyboard focus away from the button just pressed. The button that sent it is told by its
 *   `name` and `value` (as the post carries them); one without a name shows busy for any post of
 *   the page.
 *
 * `disabled` stays the caller's own (a button not offered yet). No state and no React import: the
 * module is a chunk of its own on the pages that use it, the heaviest among them.
 */
export function SubmitButton({
  variant = "primary",
  className,
  name,
  value,
  onClick,
  ...rest
}: Omit<ButtonProps, "type">) {
  const navigation = useNavigation();
  // A post of this page under way: the action, then the page it leads to.
  const posting = navigation.state !== "idle" && navigation.formMethod !== undefined;
  const busy = posting && (name === undefined || navigation.formData?.get(name) === String(value));

  const press = (event: MouseEvent<HTMLButtonElement>) => {
    if (posting) event.preventDefault();
    else onClick?.(event);
  };

  return (
    // The ui Button's markup, written out (the ui chunk is on every page).
    <button
      {...rest}
      type="submit"
      name={name}
      value={value}
      className={`ui-button${variant === "primary" ? "" : ` ui-button--${variant}`}${className ? ` ${className}` : ""}${busy ? " ui-button--busy" : ""}`}
      aria-busy={busy || undefined}
      aria-disabled={posting || undefined}
      onClick={press}
    />
  );
}
