import { useState, type ComponentType } from "react";
import { useLocation } from "react-router";

/**
 * A page mounted afresh on every navigation, so a form's state (what was typed or ticked, its
 * messages, a closed confirmation) never outlives the page it belongs to: after a save, a refusal,
 * "Endre" or "Avbryt".
 *
 * The page keeps the action's answer it was mounted with. React Router hands a post's answer to the
 * page it was sent from as soon as the action answers, while the loaders still run, and only then
 * moves to the new location. Read straight from the props, the answer (a confirmation with a box
 * to tick, say) appeared on the old page and then, with the new location, on a new one: what the
 * person had ticked in between was gone, and their press posted the box unticked.
 */
export function FreshPage<P extends { actionData?: unknown }>({ page, props }: { page: ComponentType<P>; props: P }) {
  return <PageWithItsAnswer key={useLocation().key} page={page} props={props} />;
}

function PageWithItsAnswer<P extends { actionData?: unknown }>({
  page: Page,
  props,
}: {
  page: ComponentType<P>;
  props: P;
}) {
  const [actionData] = useState(() => props.actionData);
  return <Page {...props} actionData={actionData} />;
}
