import { and, asc, desc, eq } from "drizzle-orm";
import { formForAnswering, type FormForAnswering } from "~/services/answering/index.server";
import type { Db } from "~/services/platform/db/client.server";
import { schemeForms, schemes, classes, semesters, subjects } from "~/services/platform/db/schema";
import type { Viewer } from "~/services/placements/index.server";
import { mayReadForm, memberOfClass } from "./pdf/records.server";

/** A class of the viewer's whose response schemes ask the form, and in which halves. */
export interface ClassUsingForm {
  classId: number;
  subjectCode: string;
  subjectName: string;
  semesterName: string;
  halves: ("mid" | "end")[];
}

export interface FormToRead {
  form: FormForAnswering;
  /** The viewer's classes that use the form, newest semester first (none for the admin, who sees every form). */
  classes: ClassUsingForm[];
}

/**
 * A form as a page to read (`/teacher/form/:formId`, `/supervisor/form/:formId`): what
 * the student will be asked. The same rule as the form's empty PDF (ADR 0010, mayReadForm): a
 * teacher or supervisor of a class whose schemes ask the form, this semester or an earlier one.
 * Null for anyone else, and for an unknown or deleted form: the page answers 404 either way.
 */
export async function formToRead(db: Db, viewer: Viewer, formId: number): Promise<FormToRead | null> {
  if (!(await mayReadForm(db, viewer, formId))) return null;
  const form = await formForAnswering(db, formId);
  if (!form) return null;
  const member = memberOfClass(viewer);
  const rows = member
    ? await db
        .select({
          classId: classes.id,
          subjectCode: subjects.subjectCode,
          subjectName: subjects.name,
          semesterName: semesters.name,
          isMidSemester: schemes.isMidSemester,
        })
        .from(schemeForms)
        .innerJoin(schemes, eq(schemes.id, schemeForms.schemeId))
        .innerJoin(classes, eq(classes.id, schemes.classId))
        .innerJoin(subjects, eq(subjects.id, classes.subjectId))
        .innerJoin(semesters, eq(semesters.id, classes.semesterId))
        .where(and(eq(schemeForms.formId, formId), member))
        .orderBy(desc(semesters.startDate), asc(subjects.subjectCode), desc(schemes.isMidSemester))
    : [];
  const byClass = new Map<number, ClassUsingForm>();
  for (const row of rows) {
    let entry = byClass.get(row.classId);
    if (!entry) {
      entry = {
        classId: row.classId,
        subjectCode: row.subjectCode,
        subjectName: row.subjectName,
        semesterName: row.semesterName,
        halves: [],
      };
      byClass.set(row.classId, entry);
    }
    const half = row.isMidSemester ? "mid" : "end";
    if (!entry.halves.includes(half)) entry.halves.push(half);
  }
  return { form, classes: [...byClass.values()] };
}
