import { getDb } from "~/services/platform/db/index.server";
import { idParam, notFound } from "~/services/platform/ids";
import { apiError, jsonApi, postOnly } from "~/services/platform/json-api.server";
import { requireStudentAccess } from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireApiRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { postedWarningId, postedWarningText } from "~/services/warnings";
import { saveWarningDraft } from "~/services/warnings/index.server";
import type { Route } from "./+types/warning";

/**
 * The warning page's autosave (`POST api/classes/{c}/students/{s}/warning`): the teacher's
 * draft, saved without leaving the page, by the same rules and checks as the page's own "Lagre
 * utkast" (a teacher of the class; warnings.server.ts). Answers in JSON: the warning's id, or why not;
 * a refusal (logged out, another role, a student the teacher may not see: 404 as on the page) in
 * JSON too (json-api.server.ts).
 */
export function loader() {
  return postOnly();
}

export function action(args: Route.ActionArgs) {
  return jsonApi(() => saveDraft(args));
}

async function saveDraft({ request, context, params }: Route.ActionArgs) {
  const session = requireApiRole(context, ROLE.Teacher);
  const db = await getDb();
  const access = await requireStudentAccess(
    db,
    { userId: session.user.id, role: ROLE.Teacher },
    idParam(params.classId),
    idParam(params.studentUserId),
  );
  const form = await readFormData(request);
  const seenId = postedWarningId(form.get("warningId"));
  const headers = { "Cache-Control": "no-store" };
  if (seenId === undefined) return apiError(400, "malformed");
  const outcome = await saveWarningDraft(db, {
    access,
    actorUserId: session.user.id,
    ip: clientAddress(request),
    text: postedWarningText(form),
    seenId,
  });
  if (outcome.ok)
    return Response.json({ warningId: outcome.warningId, savedAt: outcome.updatedAt.toISOString() }, { headers });
  switch (outcome.error) {
    case "notAllowed":
      return notFound();
    case "invalid":
      return Response.json({ error: "invalid", fieldErrors: outcome.fieldErrors }, { status: 400, headers });
    case "gone":
      return Response.json({ error: "gone", currentId: outcome.currentId }, { status: 409, headers });
    case "alreadyGiven":
      return Response.json({ error: "alreadyGiven" }, { status: 409, headers });
  }
}
