import { aliasedTable, and, asc, desc, eq, gt, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "~/services/platform/db/client.server";
import {
  supervisorInvitations,
  answers,
  answerSets,
  schemes,
  auditEvents,
  classes,
  formQuestionGroups,
  formQuestions,
  forms,
  semesters,
  privacyAcceptances,
  QUESTION_GROUP_TYPE,
  recordOpenings,
  resultSubmissions,
  roles,
  signingFormArchive,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  userAffiliations,
  userRoles,
  users,
  warnings,
} from "~/services/platform/db/schema";

/**
 * A copy of everything Praksis holds about a student (GDPR art. 15 and 20; docs/rules/documents.md), as one JSON
 * document written section by section while the browser reads it: the answers and the access list
 * are read a page at a time, so a long record never sits whole in memory.
 *
 * What another person may not see stays out, exactly as in the app: a teacher's or supervisor's
 * answers before they are sent (a private draft), a warning before it is given (ADR 0008), the
 * addresses others logged in from.
 */

export const MY_DATA_FORMAT = "praksis-my-data";
export const MY_DATA_VERSION = 1;
const PAGE = 500;

type Section = () => AsyncGenerator<unknown, void, undefined> | Promise<unknown>;

// The subqueries name their table by an alias: drizzle leaves columns unqualified in a select from
// one table, and an unqualified "id" inside would be the subquery's own.
function roleNameOf(roleId: AnyPgColumn) {
  return sql<string>`(select r.name from ${roles} r where r.id = ${roleId})`;
}

function nameOf(userId: AnyPgColumn) {
  return sql<string | null>`(select u.display_name from ${users} u where u.id = ${userId})`;
}

async function profile(db: Db, studentUserId: number) {
  const [user] = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      phoneNumber: users.phoneNumber,
      feideUserId: users.feideUserId,
      isActive: users.isActive,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, studentUserId));
  if (!user) return null;
  const held = await db
    .select({ name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, studentUserId))
    .orderBy(asc(roles.id));
  return { ...user, roles: held.map((r) => r.name) };
}

function courseMemberships(db: Db, studentUserId: number) {
  return db
    .select({
      groupId: userAffiliations.groupId,
      groupType: userAffiliations.groupType,
      subjectCode: userAffiliations.subjectCode,
      displayName: userAffiliations.displayName,
      active: userAffiliations.active,
      notBefore: userAffiliations.notBefore,
      notAfter: userAffiliations.notAfter,
      fetchedAt: userAffiliations.fetchedAt,
    })
    .from(userAffiliations)
    .where(eq(userAffiliations.userId, studentUserId))
    .orderBy(asc(userAffiliations.groupId));
}

function privacy(db: Db, studentUserId: number) {
  return db
    .select({ policyVersion: privacyAcceptances.policyVersion, acceptedAt: privacyAcceptances.acceptedAt })
    .from(privacyAcceptances)
    .where(eq(privacyAcceptances.userId, studentUserId))
    .orderBy(asc(privacyAcceptances.acceptedAt));
}

async function placements(db: Db, studentUserId: number) {
  const rows = await db
    .select({
      classId: classes.id,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
      semester: semesters.name,
      midSemesterDate: classes.midSemesterDate,
      endSemesterDate: classes.endSemesterDate,
      joinedAt: studentReferences.createdAt,
      teacher: nameOf(studentReferences.teacherUserId),
      supervisor: nameOf(studentReferences.supervisorUserId),
      extraSupervisors: sql<
        string[]
      >`coalesce((select array_agg(u.display_name order by u.display_name) from ${studentExtraSupervisors} x join ${users} u on u.id = x.user_id where x.student_reference_id = ${studentReferences.id}), '{}')`,
    })
    .from(studentReferences)
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(eq(studentReferences.studentUserId, studentUserId))
    .orderBy(desc(semesters.startDate), asc(subjects.subjectCode));
  return rows;
}

/** The student's own answer sets (drafts too) and everyone else's once sent, with every answer. */
async function* answerSetsOf(db: Db, studentUserId: number) {
  let afterId = 0;
  for (;;) {
    const sets = await db
      .select({
        id: answerSets.id,
        classId: schemes.classId,
        form: forms.name,
        half: sql<"mid" | "end">`case when ${answerSets.isMidSemester} then 'mid' else 'end' end`,
        author: nameOf(answerSets.authorUserId),
        authorRole: roleNameOf(answerSets.authorRoleId),
        sentAt: answerSets.sentAt,
        createdAt: answerSets.createdAt,
        updatedAt: answerSets.updatedAt,
      })
      .from(answerSets)
      .innerJoin(schemes, eq(schemes.id, answerSets.schemeId))
      .innerJoin(forms, eq(forms.id, answerSets.formId))
      .where(
        and(
          eq(answerSets.studentUserId, studentUserId),
          or(eq(answerSets.authorUserId, studentUserId), isNotNull(answerSets.sentAt)),
          gt(answerSets.id, afterId),
        ),
      )
      .orderBy(asc(answerSets.id))
      .limit(PAGE);
    if (sets.length === 0) return;
    const rows = await db
      .select({
        answerSetId: answers.answerSetId,
        group: formQuestionGroups.name,
        question: formQuestions.text,
        value: answers.value,
        label: sql<
          string | null
        >`case when ${formQuestionGroups.type} = ${QUESTION_GROUP_TYPE.Grading} and ${answers.value} ~ '^[0-9]+$' then ${formQuestionGroups.options}[${answers.value}::int + 1] end`,
        comment: answers.comment,
        commentedAt: answers.commentedAt,
        updatedAt: answers.updatedAt,
      })
      .from(answers)
      .innerJoin(formQuestions, eq(formQuestions.id, answers.questionId))
      .innerJoin(formQuestionGroups, eq(formQuestionGroups.id, formQuestions.groupId))
      .where(
        inArray(
          answers.answerSetId,
          sets.map((s) => s.id),
        ),
      )
      .orderBy(asc(answers.answerSetId), asc(formQuestionGroups.order), asc(formQuestions.order));
    const bySet = new Map<number, typeof rows>();
    for (const row of rows) bySet.set(row.answerSetId, [...(bySet.get(row.answerSetId) ?? []), row]);
    for (const set of sets) {
      const { id, ...rest } = set;
      yield {
        ...rest,
        answers: (bySet.get(id) ?? []).map(({ answerSetId: _, ...answer }) => answer),
      };
    }
    afterId = sets[sets.length - 1].id;
    if (sets.length < PAGE) return;
  }
}

/** Given warnings only: a draft is the teachers' alone until it is given (ADR 0008). */
function givenWarnings(db: Db, studentUserId: number) {
  return db
    .select({
      classId: studentReferences.classId,
      teacher: nameOf(warnings.teacherUserId),
      comment: warnings.comment,
      passRequirement: warnings.passRequirement,
      passRequirementSummary: warnings.passRequirementSummary,
      givenAt: warnings.submittedAt,
      confirmedByStudentAt: warnings.studentConfirmedWarningAt,
    })
    .from(warnings)
    .innerJoin(studentReferences, eq(studentReferences.id, warnings.studentReferenceId))
    .where(and(eq(studentReferences.studentUserId, studentUserId), isNotNull(warnings.submittedAt)))
    .orderBy(asc(warnings.submittedAt));
}

function signingFormsOf(db: Db, studentUserId: number) {
  return db
    .select({
      classId: studentReferences.classId,
      attendancePassed: signingForms.attendancePassed,
      workRequirementsPassed: signingForms.workRequirementsPassed,
      specificCompetenceAreasPassed: signingForms.specificCompetenceAreasPassed,
      generalCompetenceAreasPassed: signingForms.generalCompetenceAreasPassed,
      teacherComment: signingForms.teacherComment,
      overallPassed: signingForms.overallPassed,
      isLocked: signingForms.isLocked,
      midSemesterCompletedDate: signingForms.midSemesterCompletedDate,
      endSemesterCompletedDate: signingForms.endSemesterCompletedDate,
      midSemesterSpecificCompetenceAreasBegun: signingForms.midSemesterSpecificCompetenceAreasBegun,
      midSemesterStudentHasGivenFeedback: signingForms.midSemesterStudentHasGivenFeedback,
      signedByTeacher: nameOf(signingForms.signedByTeacherUserId),
      signedByTeacherAt: signingForms.signedByTeacherDate,
      signedByStudentAt: signingForms.signedByStudentDate,
      signedBySupervisor: nameOf(signingForms.signedBySupervisorUserId),
      signedBySupervisorAt: signingForms.signedBySupervisorDate,
      signWithoutSupervisorConfirmedAt: signingForms.signWithoutSupervisorConfirmedDate,
      resultSubmittedAt: signingForms.resultSubmittedAt,
      createdAt: signingForms.createdAt,
      updatedAt: signingForms.updatedAt,
    })
    .from(signingForms)
    .innerJoin(studentReferences, eq(studentReferences.id, signingForms.studentReferenceId))
    .where(eq(studentReferences.studentUserId, studentUserId))
    .orderBy(asc(signingForms.createdAt));
}

function cancelledSigningForms(db: Db, studentUserId: number) {
  return db
    .select({
      classId: studentReferences.classId,
      archivedAt: signingFormArchive.archivedAt,
      cancelledBy: nameOf(signingFormArchive.archivedByUserId),
      reason: signingFormArchive.reason,
      form: signingFormArchive.data,
    })
    .from(signingFormArchive)
    .innerJoin(studentReferences, eq(studentReferences.id, signingFormArchive.studentReferenceId))
    .where(eq(studentReferences.studentUserId, studentUserId))
    .orderBy(asc(signingFormArchive.archivedAt));
}

function resultsSubmitted(db: Db, studentUserId: number) {
  return db
    .select({
      classId: studentReferences.classId,
      exporter: resultSubmissions.exporter,
      submittedAt: resultSubmissions.submittedAt,
      submittedBy: nameOf(resultSubmissions.submittedByUserId),
      payload: resultSubmissions.payload,
    })
    .from(resultSubmissions)
    .innerJoin(studentReferences, eq(studentReferences.id, resultSubmissions.studentReferenceId))
    .where(eq(studentReferences.studentUserId, studentUserId))
    .orderBy(asc(resultSubmissions.submittedAt));
}

function invitationsSent(db: Db, studentUserId: number) {
  return db
    .select({
      classId: studentReferences.classId,
      email: supervisorInvitations.email,
      sentAt: supervisorInvitations.createdAt,
      expiresAt: supervisorInvitations.expiresAt,
      acceptedAt: supervisorInvitations.acceptedAt,
    })
    .from(supervisorInvitations)
    .innerJoin(studentReferences, eq(studentReferences.id, supervisorInvitations.studentReferenceId))
    .where(eq(studentReferences.studentUserId, studentUserId))
    .orderBy(asc(supervisorInvitations.createdAt));
}

/** The access list: who opened the student's pages and documents (one entry per person, page and hour). */
async function* openings(db: Db, studentUserId: number) {
  let offset = 0;
  for (;;) {
    const rows = await db
      .select({
        at: recordOpenings.at,
        viewer: nameOf(recordOpenings.viewerUserId),
        viewerRole: roleNameOf(recordOpenings.viewerRole),
        kind: recordOpenings.kind,
        classId: recordOpenings.classId,
      })
      .from(recordOpenings)
      .where(eq(recordOpenings.studentUserId, studentUserId))
      .orderBy(
        desc(recordOpenings.hour),
        desc(recordOpenings.at),
        asc(recordOpenings.viewerUserId),
        asc(recordOpenings.kind),
      )
      .limit(PAGE)
      .offset(offset);
    yield* rows;
    if (rows.length < PAGE) return;
    offset += PAGE;
  }
}

const actor = aliasedTable(users, "actor");

/** The audit trail about the student (by whom, without their address) and the student's own (with theirs). */
async function* auditTrail(db: Db, studentUserId: number) {
  let afterId = 0;
  for (;;) {
    const rows = await db
      .select({
        id: auditEvents.id,
        at: auditEvents.at,
        action: auditEvents.action,
        actorUserId: auditEvents.actorUserId,
        by: actor.displayName,
        classId: auditEvents.classId,
        ip: auditEvents.ip,
      })
      .from(auditEvents)
      .leftJoin(actor, eq(actor.id, auditEvents.actorUserId))
      .where(
        and(
          or(eq(auditEvents.subjectUserId, studentUserId), eq(auditEvents.actorUserId, studentUserId)),
          gt(auditEvents.id, afterId),
        ),
      )
      .orderBy(asc(auditEvents.id))
      .limit(PAGE);
    for (const { id: _, actorUserId, ip, ...row } of rows) {
      yield { ...row, ip: actorUserId === studentUserId ? ip : null };
    }
    if (rows.length < PAGE) return;
    afterId = rows[rows.length - 1].id;
  }
}

export interface MyDataExport {
  fileName: string;
  stream: ReadableStream<Uint8Array>;
}

/**
 * The student's data as a stream of JSON text. The first section is read before the stream is
 * returned, so a student who is not there (or a broken database) is an error the route can still
 * answer with a status, not a cut-off file.
 */
export async function openMyDataExport(db: Db, studentUserId: number, now = new Date()): Promise<MyDataExport | null> {
  const user = await profile(db, studentUserId);
  if (!user) return null;

  const sections: [string, Section][] = [
    ["courseMemberships", () => courseMemberships(db, studentUserId)],
    ["privacyAcceptances", () => privacy(db, studentUserId)],
    ["classes", () => placements(db, studentUserId)],
    ["answerSets", () => answerSetsOf(db, studentUserId)],
    ["warnings", () => givenWarnings(db, studentUserId)],
    ["signingForms", () => signingFormsOf(db, studentUserId)],
    ["cancelledSigningForms", () => cancelledSigningForms(db, studentUserId)],
    ["resultSubmissions", () => resultsSubmitted(db, studentUserId)],
    ["supervisorInvitations", () => invitationsSent(db, studentUserId)],
    ["accessList", () => openings(db, studentUserId)],
    ["auditTrail", () => auditTrail(db, studentUserId)],
  ];

  const encoder = new TextEncoder();
  const head = `{\n${JSON.stringify("format")}: ${JSON.stringify(MY_DATA_FORMAT)},\n"version": ${MY_DATA_VERSION},\n"generatedAt": ${JSON.stringify(now.toISOString())},\n"profile": ${JSON.stringify(user)}`;
  let index = -1;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (index === -1) {
          controller.enqueue(encoder.encode(head));
          index = 0;
          return;
        }
        if (index === sections.length) {
          controller.enqueue(encoder.encode("\n}\n"));
          controller.close();
          return;
        }
        const [name, read] = sections[index++];
        const result = read();
        if (Symbol.asyncIterator in (result as object)) {
          // A long section goes out a page at a time, each as it is read.
          let text = `,\n${JSON.stringify(name)}: [`;
          let first = true;
          let count = 0;
          for await (const item of result as AsyncGenerator<unknown>) {
            text += (first ? "\n" : ",\n") + JSON.stringify(item);
            first = false;
            if (++count % PAGE === 0) {
              controller.enqueue(encoder.encode(text));
              text = "";
            }
          }
          controller.enqueue(encoder.encode(text + "]"));
        } else {
          controller.enqueue(encoder.encode(`,\n${JSON.stringify(name)}: ${JSON.stringify(await result)}`));
        }
      },
    },
    { highWaterMark: 0 },
  );
  const day = now.toISOString().slice(0, 10);
  return { fileName: `praksis-my-data-${user.id}-${day}.json`, stream };
}
