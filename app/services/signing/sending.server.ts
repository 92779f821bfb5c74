import { and, eq, inArray, isNotNull, isNull, ne, or } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import {
  answers,
  answerSets,
  formQuestionGroups,
  formQuestions,
  forms,
  QUESTION_GROUP_TYPE,
} from "~/services/platform/db/schema";
import { currentInstitution } from "~/services/platform/institution.server";
import { hasSupervisor, placementOf } from "~/services/placements/index.server";
import { ROLE } from "~/services/identity";
import type { FormSending, SendingFacts } from "./sending";

/**
 * The facts of sending.ts for one student's placement: each form of the class's schemes with who
 * has sent it (placements' own view of it), and the teachers' answers to its questions (those not
 * the student's own; sent answers, and the viewer's own draft: another teacher's draft is private,
 * as on the validation summary).
 */
export async function sendingFacts(
  db: Db,
  place: { referenceId: number; classId: number; studentUserId: number },
  viewerUserId: number,
): Promise<SendingFacts> {
  const placement = await placementOf(db, place.referenceId, viewerUserId);
  if (!placement) return { forms: [], hasSupervisor: false };
  const schemeForms = placement.schemes.flatMap((scheme) => scheme.forms);
  const schemeIds = [...new Set(schemeForms.map((f) => f.schemeId))];
  if (schemeIds.length === 0) return { forms: [], hasSupervisor: hasSupervisor(placement) };

  const questions = await db
    .select({ formId: formQuestionGroups.formId, questionId: formQuestions.id })
    .from(formQuestionGroups)
    .innerJoin(forms, and(eq(forms.id, formQuestionGroups.formId), isNull(forms.deletedAt)))
    .innerJoin(formQuestions, and(eq(formQuestions.groupId, formQuestionGroups.id), isNull(formQuestions.deletedAt)))
    .where(
      and(
        inArray(formQuestionGroups.formId, [...new Set(schemeForms.map((f) => f.formId))]),
        isNull(formQuestionGroups.deletedAt),
        inArray(formQuestionGroups.type, [QUESTION_GROUP_TYPE.Grading, QUESTION_GROUP_TYPE.TextInput]),
        // The student's own groups are not the teachers' to answer (as in the validation summary).
        ne(formQuestionGroups.audience, "student"),
      ),
    );
  const answered = await db
    .selectDistinct({
      schemeId: answerSets.schemeId,
      formId: answerSets.formId,
      questionId: answers.questionId,
    })
    .from(answerSets)
    .innerJoin(answers, eq(answers.answerSetId, answerSets.id))
    .where(
      and(
        eq(answerSets.studentUserId, place.studentUserId),
        eq(answerSets.authorRoleId, ROLE.Teacher),
        inArray(answerSets.schemeId, schemeIds),
        or(isNotNull(answerSets.sentAt), eq(answerSets.authorUserId, viewerUserId)),
        isNotNull(answers.value),
        ne(answers.value, ""),
      ),
    );
  const questionsOf = new Map<number, Set<number>>();
  for (const q of questions)
    (questionsOf.get(q.formId) ?? questionsOf.set(q.formId, new Set()).get(q.formId)!).add(q.questionId);
  const answeredKeys = new Set(answered.map((a) => `${a.schemeId}:${a.formId}:${a.questionId}`));

  const result: FormSending[] = schemeForms.map((form) => {
    const own = questionsOf.get(form.formId) ?? new Set<number>();
    let count = 0;
    for (const questionId of own) if (answeredKeys.has(`${form.schemeId}:${form.formId}:${questionId}`)) count++;
    return {
      schemeId: form.schemeId,
      formId: form.formId,
      name: form.name,
      isMidSemester: form.isMidSemester,
      sent: {
        student: form.sentBy.student !== null,
        supervisor: form.sentBy.supervisor !== null,
        teacher: form.sentBy.teacher !== null,
      },
      teacherAnswers: { answered: count, questions: own.size },
    };
  });
  return { forms: result, hasSupervisor: hasSupervisor(placement) };
}

/** The institution's file may require every form sent before the mid-semester confirmation and the teacher's signature. */
export function requireSentForms(): boolean {
  return currentInstitution().signing?.requireSentForms === true;
}
