import { getDb } from "~/services/platform/db/index.server";
import { submitFormPage } from "~/services/answering/index.server";
import { parseId } from "~/services/platform/ids";
import { apiError, jsonApi, postOnly } from "~/services/platform/json-api.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireApiSession } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/answers";

/**
 * The form page's autosave (`POST api/answers`): the changed answers of a page, saved without
 * leaving it, by the same rules and access checks as the page's own posts (form-page.server.ts).
 * Answers in JSON: the new base token per question, and any conflicts (answering.ts); a refusal
 * (logged out, another role, a place the person may not see) in JSON too (json-api.server.ts).
 */
export function loader() {
  return postOnly();
}

export function action({ request, context }: Route.ActionArgs) {
  return jsonApi(async () => {
    const session = requireApiSession(context);
    const role = session.activeRole;
    if (role === null) return apiError(403, "forbidden");
    const form = await readFormData(request);
    const id = (name: string) => parseId(typeof form.get(name) === "string" ? (form.get(name) as string) : null);
    const ids = {
      classId: id("classId"),
      formId: id("formId"),
      // A page loaded before the code said "scheme" still posts the id under its earlier name.
      schemeId: id("schemeId") ?? id("assignmentId"), // stored name
      studentUserId: id("studentUserId"),
    };
    if (
      ids.classId === null ||
      ids.formId === null ||
      ids.schemeId === null ||
      (role !== ROLE.Admin && ids.studentUserId === null)
    ) {
      return apiError(400, "malformed");
    }
    const result = await submitFormPage(
      await getDb(),
      { userId: session.user.id, role },
      {
        classId: ids.classId,
        formId: ids.formId,
        schemeId: ids.schemeId,
        studentUserId: role === ROLE.Admin ? null : ids.studentUserId,
      },
      form,
      { send: false, ip: clientAddress(request) },
    );
    const headers = { "Cache-Control": "no-store" };
    switch (result.kind) {
      case "malformed":
        return apiError(400, "malformed");
      case "locked":
        return Response.json({ error: "locked" }, { status: 409, headers });
      case "refused":
        return Response.json(
          {
            error: result.formError ?? (Object.keys(result.fieldErrors).length > 0 ? "invalid" : "conflict"),
            fieldErrors: result.fieldErrors,
            tokens: result.tokens,
            conflicts: Object.entries(result.conflicts).map(([questionId, stored]) => ({
              questionId: Number(questionId),
              ...stored,
            })),
          },
          // A conflict is not a failure of the save: the others were saved, and the page shows both versions.
          { status: Object.keys(result.conflicts).length > 0 ? 200 : result.status, headers },
        );
      case "saved":
        return Response.json({ tokens: result.tokens, savedAt: new Date().toISOString() }, { headers });
    }
  });
}
