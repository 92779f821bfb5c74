import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Button, ButtonGroup, LinkButton, type ButtonVariant } from "~/components/ui";

/**
 * The second step before what cannot be undone (cancelling a signing form, confirming the
 * mid-semester part, giving a warning, leaving a class): a plain form post of what was shown, in
 * hidden fields, with the confirming button first and a way back that changes nothing: a link, or
 * a button of the same form (`back.name`) where what was typed should come back with it. Server
 * rendered and the same with JavaScript on and off.
 */
export function ConfirmActions({
  action,
  fields,
  confirm,
  back,
  variant = "warning",
  children,
}: {
  /** Where the form posts; the current page when left out. */
  action?: string;
  /** The hidden fields: the intent and what the person saw. */
  fields: Record<string, string>;
  /** The confirming button's label; none when the step is refused (only the way back is offered). */
  confirm?: string;
  back: { label: string; href: string } | { label: string; name: string; value: string };
  variant?: ButtonVariant;
  /** What is asked inside the form before the buttons (a box to tick). */
  children?: ReactNode;
}) {
  // Never disabled as the server renders it: a press before the page's script has started posts as plain HTML.
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" action={action}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <ButtonGroup>
        {confirm ? (
          <Button variant={variant} disabled={busy}>
            {confirm}
          </Button>
        ) : null}
        {"href" in back ? (
          <LinkButton variant="secondary" to={back.href} preventScrollReset>
            {back.label}
          </LinkButton>
        ) : (
          <Button variant="secondary" name={back.name} value={back.value} disabled={busy}>
            {back.label}
          </Button>
        )}
      </ButtonGroup>
    </Form>
  );
}
