import { redirect, type RouterContextProvider } from "react-router";
import { audit } from "~/services/platform/audit.server";
import { recordOpening, type OpeningKind } from "~/services/platform/record-openings.server";
import { contentDisposition } from "~/services/documents/csv";
import type { Db } from "~/services/platform/db/client.server";
import { getDb } from "~/services/platform/db/index.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { idParam } from "~/services/platform/ids";
import { currentInstitution } from "~/services/platform/institution.server";
import { requireStudentAccess, type StudentAccess, type Viewer } from "~/services/placements/index.server";
import { clientAddress } from "~/services/platform/request.server";
import { requireSession } from "~/services/identity/index.server";
import type { DocumentFileName, DocumentSettings } from "./documents.server";

/**
 * The plumbing shared by the document routes (ADR 0010): who is asking, the PDF response with its
 * server-chosen name, and the audit trail of every download of a student's document.
 */

export type StudentDocumentKind = "answers" | "warning" | "signingForm" | "full";

const OPENING_OF: Record<StudentDocumentKind, OpeningKind> = {
  answers: "answersPdf",
  warning: "warningPdf",
  signingForm: "signingFormPdf",
  full: "fullPdf",
};

interface Args {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/**
 * The documents live outside the role areas (under /api/), so the active role is taken from the
 * session: it decides what the viewer may see, exactly as on the page that links here. No session:
 * the log-in page, then back; no active role: the role chooser, then back.
 */
export function requireViewer({ request, context }: Args): Viewer {
  const session = requireSession(request, context);
  if (!session.activeRole) {
    const url = new URL(request.url);
    throw redirect(`/role?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return { userId: session.user.id, role: session.activeRole };
}

export function documentSettings(context: Readonly<RouterContextProvider>): DocumentSettings {
  const language = getLanguage(context);
  const fixed = getInstance(context).getFixedT(language, "documents");
  return {
    t: (key, values) => fixed(key, values),
    language,
    institution: currentInstitution(),
  };
}

/** Shown in the browser by default; `?download=1` asks for a file to save instead. */
export function wantsAttachment(request: Request): boolean {
  return new URL(request.url).searchParams.get("download") === "1";
}

export function pdfResponse(request: Request, bytes: Uint8Array<ArrayBuffer>, fileName: DocumentFileName): Response {
  return new Response(bytes, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": contentDisposition(
        wantsAttachment(request) ? "attachment" : "inline",
        fileName.name,
        fileName.ascii,
      ),
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export interface StudentDocumentContext {
  db: Db;
  viewer: Viewer;
  access: StudentAccess;
  settings: DocumentSettings;
}

/**
 * A document about a student of a class: the viewer must see that student as on the student's
 * pages (permissions.server.ts; anyone else gets the same 404 as for an unknown student), the
 * document is made, the download is written to the audit log, and the file is sent.
 */
export async function studentDocument(
  args: Args & { params: { classId?: string; studentUserId?: string } },
  kind: StudentDocumentKind,
  make: (
    context: StudentDocumentContext,
  ) => Promise<{ bytes: Uint8Array<ArrayBuffer>; fileName: DocumentFileName; details?: Record<string, unknown> }>,
): Promise<Response> {
  const viewer = requireViewer(args);
  const classId = idParam(args.params.classId);
  const studentUserId = idParam(args.params.studentUserId);
  const db = await getDb();
  const access = await requireStudentAccess(db, viewer, classId, studentUserId);
  const made = await make({ db, viewer, access, settings: documentSettings(args.context) });
  await Promise.all([
    recordOpening(db, {
      viewerUserId: viewer.userId,
      viewerRole: viewer.role,
      studentUserId,
      classId,
      kind: OPENING_OF[kind],
    }),
    audit(db, {
      action: "document.downloaded",
      actorUserId: viewer.userId,
      subjectUserId: studentUserId,
      classId,
      ip: clientAddress(args.request),
      details: {
        document: kind,
        ...made.details,
        relation: access.relation,
        disposition: wantsAttachment(args.request) ? "attachment" : "inline",
      },
    }),
  ]);
  return pdfResponse(args.request, made.bytes, made.fileName);
}
