import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { href } from "~/components/href";
import { ErasurePage } from "~/components/app/ErasurePage";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enRecords from "~/locales/en/records.json";
import nbRecords from "~/locales/nb/records.json";
import type { MessageKey } from "~/locales/keys";
import { ROLE } from "~/services/identity";
import { requireRole } from "~/services/identity/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import { currentInstitution } from "~/services/platform/institution.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { formatDay } from "~/services/platform/semesters";
import { erasePerson, erasurePlan } from "~/services/records/index.server";
import { retentionRules } from "~/services/records";
import { schema } from "./erase-user.schema";
import type { Route } from "./+types/erase-user";

provideNamespace("records", { nb: nbRecords, en: enRecords });

export const handle = { titleKey: "records:erase.title" };

/**
 * Erasing one person on request (GDPR art. 17; docs/rules/records.md), in two steps like giving a
 * warning: this page lists what goes now and what must be kept until its period ends, and the post
 * needs the box "Jeg forstår at dette ikke kan angres" ticked. The person is anonymised (audited by
 * the service) and the admin is back on the user page with a flash. Never oneself.
 */
async function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireRole(args.request, args.context, ROLE.Admin);
  const userId = idParam(args.params.userId);
  const db = await getDb();
  const rules = retentionRules(currentInstitution());
  const plan = (await erasurePlan(db, userId, rules, new Date())) ?? notFound();
  return {
    session,
    db,
    userId,
    rules,
    plan,
    isSelf: session.user.id === userId,
    userPage: href("/admin/users/:userId", { userId: String(userId) }),
  };
}

export async function loader(args: Route.LoaderArgs) {
  const { plan, isSelf, userPage } = await guard(args);
  const language = getLanguage(args.context);
  return {
    person: { name: plan.person.displayName, email: plan.person.email, erased: plan.person.erased },
    isSelf,
    userPage,
    goes: plan.goes.filter((g) => g.count > 0),
    kept: plan.kept.map((k) => ({ kind: k.kind, count: k.count, until: formatDay(k.until, language) })),
  };
}

function refused(result: SubmissionResult<string[]>) {
  return data({ result }, { status: 400 });
}

export async function action(args: Route.ActionArgs) {
  const { session, db, userId, rules, plan, userPage } = await guard(args);
  const form = await readFormData(args.request);
  if (form.get("intent") !== "erase") throw new Response("Bad Request", { status: 400 });
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return refused(submission.reply());
  const by = { actorUserId: session.user.id, ip: clientAddress(args.request) };
  const outcome = await erasePerson(db, userId, by, rules, new Date());
  switch (outcome) {
    case "not-found":
      return notFound();
    case "self":
      return refused(submission.reply({ formErrors: ["records:erase.errors.self" satisfies MessageKey] }));
    case "already":
      return redirectWithFlash(userPage, { type: "info", key: "records:erase.already" });
    case "erased":
      return redirectWithFlash(userPage, {
        type: "success",
        key: "records:erase.done",
        values: { name: plan.person.displayName },
      });
  }
}

export default function EraseUser({ loaderData, actionData }: Route.ComponentProps) {
  return <ErasurePage {...loaderData} result={actionData?.result} />;
}
