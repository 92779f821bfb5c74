import { useTranslation } from "react-i18next";
import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { Button } from "~/components/ui";
import { audit } from "~/services/platform/audit.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getInstance } from "~/services/platform/i18n.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireSession, setActiveRole } from "~/services/identity/index.server";
import { areaOfPath, isRoleId, ROLE_HOME, ROLE_NAMES, safeRedirect } from "~/services/identity";
import type { Route } from "./+types/role";

export const handle = { titleKey: "common:role.title" };

const schema = z.object({ roleId: z.coerce.number().int(), redirectTo: z.string().optional() });

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireSession(request, context);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  const wanted = redirectTo ? areaOfPath(new URL(redirectTo, "http://x").pathname) : null;
  return {
    roles: session.user.roles.map((id) => ({ id, name: ROLE_NAMES[id] })),
    activeRole: session.activeRole,
    redirectTo,
    // Asked for an area of a role the user does not hold: say so rather than loop.
    missingRole: wanted !== null && !session.user.roles.includes(wanted) ? ROLE_NAMES[wanted] : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireSession(request, context);
  const parsed = schema.safeParse(Object.fromEntries(await readFormData(request)));
  const roleId = parsed.success ? parsed.data.roleId : NaN;
  if (!parsed.success || !isRoleId(roleId) || !session.user.roles.includes(roleId)) {
    return data({ error: "common:role.invalid" }, { status: 400 });
  }
  const db = await getDb();
  await setActiveRole(db, session.id, roleId);
  if (roleId !== session.activeRole) {
    await audit(db, {
      action: "role.selected",
      actorUserId: session.user.id,
      ip: clientAddress(request),
      details: { roleId },
    });
  }
  const target = safeRedirect(parsed.data.redirectTo, "");
  const goesToArea = target && areaOfPath(new URL(target, "http://x").pathname) === roleId;
  const to = goesToArea ? target : ROLE_HOME[roleId];
  if (roleId === session.activeRole) return redirect(to, 303);
  const role = getInstance(context).t(`roles.${ROLE_NAMES[roleId]}.name`);
  return redirectWithFlash(to, { type: "info", key: "common:role.switched", values: { role } });
}

export default function RoleChooser({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="app-content">
      <h1>{t("role.title")}</h1>
      {actionData?.error ? (
        <p className="ui-error-message" role="alert">
          {t(actionData.error as "role.invalid")}
        </p>
      ) : null}
      {loaderData.missingRole ? (
        <p>{t("role.missingRole", { role: t(`roles.${loaderData.missingRole}.name`) })}</p>
      ) : null}
      <p>{t("role.intro")}</p>
      <ul className="card-grid">
        {loaderData.roles.map((role) => (
          <li key={role.id} className="ui-card">
            <h2 className="ui-card__title">{t(`roles.${role.name}.name`)}</h2>
            <p>{t(`roles.${role.name}.description`)}</p>
            <Form method="post">
              <input type="hidden" name="roleId" value={role.id} />
              <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
              <Button variant={role.id === loaderData.activeRole ? "secondary" : "primary"}>
                {role.id === loaderData.activeRole
                  ? t("role.continueAs", { role: t(`roles.${role.name}.name`) })
                  : t("role.choose", { role: t(`roles.${role.name}.name`) })}
              </Button>
            </Form>
          </li>
        ))}
      </ul>
    </div>
  );
}
