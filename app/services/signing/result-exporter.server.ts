import { eq } from "drizzle-orm";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { resultSubmissions, signingForms } from "~/services/platform/db/schema";

/**
 * Handing a signed result to the student administration system (docs/rules/signing.md; ADR 0009). The
 * signing form calls the exporter once the last signature is committed, never inside that
 * transaction: a slow or failing system must neither hold the form's row nor undo a signature.
 */

/** What is handed over: the signed form's result and where it belongs. */
export interface SignedResult {
  signingFormId: number;
  studentReferenceId: number;
  classId: number;
  studentUserId: number;
  subjectCode: string;
  semesterName: string;
  overallPassed: boolean | null;
  attendancePassed: boolean | null;
  workRequirementsPassed: boolean | null;
  specificCompetenceAreasPassed: boolean | null;
  generalCompetenceAreasPassed: boolean | null;
  midSemesterCompletedDate: string | null;
  endSemesterCompletedDate: string | null;
  signedByTeacherDate: string | null;
}

export interface ResultExporter {
  /** Stored with each submission, so the record says which system received it. */
  readonly name: string;
  /**
   * Hands the result over and records it (result_submissions, `signing_forms.result_submitted_at`,
   * the audit log). Safe to call again for the same form: a form already submitted, or no longer
   * complete (cancelled meanwhile), is left alone and null returned. Throws when the hand-over fails.
   */
  submit(
    db: Db,
    result: SignedResult,
    actor: { userId: number; ip?: string | null },
  ): Promise<{ submittedAt: Date } | null>;
}

/**
 * The default: no system at the other end yet, so the submission is the record itself. A real
 * integration (FS) delivers first and records the same way.
 */
const DATABASE = "database";

export const databaseExporter: ResultExporter = {
  name: DATABASE,
  async submit(db, result, actor) {
    return db.transaction(async (tx) => {
      // Held until commit, so two submissions of one form (a retry racing the signature's) record once.
      const [form] = await tx
        .select({ isLocked: signingForms.isLocked, resultSubmittedAt: signingForms.resultSubmittedAt })
        .from(signingForms)
        .where(eq(signingForms.id, result.signingFormId))
        .for("update");
      if (!form || !form.isLocked || form.resultSubmittedAt) return null;
      const [row] = await tx
        .insert(resultSubmissions)
        .values({
          studentReferenceId: result.studentReferenceId,
          exporter: DATABASE,
          submittedByUserId: actor.userId,
          payload: { ...result, semesterName: undefined, periodName: result.semesterName }, // stored name
        })
        .returning({ submittedAt: resultSubmissions.submittedAt });
      await tx
        .update(signingForms)
        .set({ resultSubmittedAt: row.submittedAt })
        .where(eq(signingForms.id, result.signingFormId));
      await audit(tx, {
        action: "result.submitted",
        actorUserId: actor.userId,
        subjectUserId: result.studentUserId,
        classId: result.classId,
        ip: actor.ip ?? null,
        details: { exporter: DATABASE, signingFormId: result.signingFormId, overallPassed: result.overallPassed },
      });
      return { submittedAt: row.submittedAt };
    });
  },
};
