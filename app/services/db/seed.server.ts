import { DEFAULT_GRADING_LABELS } from "../form-draft";
import { sql } from "drizzle-orm";
import { osloDate, previousSemester, semesterFor, type Semester } from "../semesters";
import type { Db } from "./client.server";
import {
  answers,
  answerSets,
  assignmentForms,
  assignments,
  classAdvisors,
  classes,
  classTeachers,
  expectations,
  formQuestionGroups,
  formQuestions,
  forms,
  periods,
  QUESTION_GROUP_TYPE,
  ROLE,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  userAffiliations,
  userRoles,
  users,
  warnings,
  type QuestionGroupType,
  type RoleId,
} from "./schema";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The default independence scale (spec §3, §9); index 5 is "not relevant". */
export const DEFAULT_GRADING_OPTIONS = DEFAULT_GRADING_LABELS;

// Any fixed number: two app instances starting on an empty PostgreSQL must not both seed.
const SEED_LOCK = 7_290_413;

interface DemoPerson {
  name: string;
  email: string;
  roles: RoleId[];
  phoneNumber?: string;
  isActive?: boolean;
}

const ADMIN: DemoPerson = {
  name: "Ada Administrator",
  email: "admin@example.org",
  // Two roles, so the role chooser has something to choose between.
  roles: [ROLE.Admin, ROLE.Teacher],
};

const TEACHERS: DemoPerson[] = [
  { name: "Ingrid Haugen", email: "laerer1@example.org", roles: [ROLE.Teacher] },
  { name: "Lars Bakken", email: "laerer2@example.org", roles: [ROLE.Teacher] },
  { name: "Siri Lunde", email: "laerer3@example.org", roles: [ROLE.Teacher] },
];

const SUPERVISORS: DemoPerson[] = [
  { name: "Marte Solberg", email: "veileder1@example.org", phoneNumber: "+4741234567", roles: [ROLE.Advisor] },
  { name: "Ole Kristiansen", email: "veileder2@example.org", phoneNumber: "+4792345678", roles: [ROLE.Advisor] },
  { name: "Hanne Berg", email: "veileder3@example.org", phoneNumber: "+4798765432", roles: [ROLE.Advisor] },
  { name: "Jonas Eriksen", email: "veileder4@example.org", phoneNumber: "+4746813579", roles: [ROLE.Advisor] },
];

const STUDENT_NAMES = [
  "Emma Andersen",
  "Noah Johansen",
  "Nora Hansen",
  "Jakob Pedersen",
  "Sofie Nilsen",
  "Emil Larsen",
  "Ella Olsen",
  "William Karlsen",
  "Ingrid Jensen",
  "Oskar Dahl",
  "Maja Moen",
  "Filip Halvorsen",
  "Leah Strand",
  "Lukas Iversen",
  "Olivia Jacobsen",
  "Henrik Johannessen",
  "Frida Sæther",
  "Aksel Lie",
  "Astrid Brekke",
  "Mathias Aas",
  "Selma Holm",
  "Tobias Myhre",
  "Ida Ødegård",
  "Magnus Knutsen",
];

const STUDENTS: DemoPerson[] = STUDENT_NAMES.map((name, i) => ({
  name,
  email: `student${String(i + 1).padStart(2, "0")}@example.org`,
  roles: [ROLE.Student],
}));

/** Has a course membership that matches a current class but has not joined it yet. */
const STUDENT_WITHOUT_CLASS: DemoPerson = {
  name: "Amalie Vik",
  email: "student25@example.org",
  roles: [ROLE.Student],
};

const DEACTIVATED_STUDENT: DemoPerson = {
  name: "Dina Deaktivert",
  email: "deaktivert@example.org",
  roles: [ROLE.Student],
  isActive: false,
};

const PEOPLE: DemoPerson[] = [
  ADMIN,
  ...TEACHERS,
  ...SUPERVISORS,
  ...STUDENTS,
  STUDENT_WITHOUT_CLASS,
  DEACTIVATED_STUDENT,
];

export interface DemoLogin {
  role: string;
  name: string;
  email: string;
}

export const DEMO_LOGINS: DemoLogin[] = [
  { role: "Admin", name: ADMIN.name, email: ADMIN.email },
  ...TEACHERS.map((p) => ({ role: "Teacher", name: p.name, email: p.email })),
  ...SUPERVISORS.map((p) => ({ role: "Advisor", name: p.name, email: p.email })),
  ...STUDENTS.slice(0, 2).map((p) => ({ role: "Student", name: p.name, email: p.email })),
  { role: "Student", name: STUDENT_WITHOUT_CLASS.name, email: STUDENT_WITHOUT_CLASS.email },
];

const SUBJECTS = {
  nursingHome: { subjectCode: "SYK2001", name: "Praksis i sykehjem" },
  specialist: { subjectCode: "SYK2002", name: "Praksis i spesialisthelsetjenesten" },
  homeCare: { subjectCode: "SYK1002", name: "Praksis i hjemmesykepleien" },
};

interface DemoQuestion {
  text: string;
  helpText?: string;
}

interface DemoGroup {
  name: string;
  type: QuestionGroupType;
  questions: DemoQuestion[];
}

interface DemoForm {
  name: string;
  isMainForm: boolean;
  groups: DemoGroup[];
}

const MAIN_FORM: DemoForm = {
  name: "Vurdering av kliniske kompetanser",
  isMainForm: true,
  groups: [
    {
      name: "Studentens egenvurdering",
      type: QUESTION_GROUP_TYPE.TextInput,
      questions: [
        { text: "Hva har du lært så langt i praksisperioden?" },
        { text: "Hva vil du arbeide mer med i resten av perioden?" },
        {
          text: "Hvordan opplever du veiledningen du får?",
          helpText: "Tenk på både den daglige veiledningen og veiledningssamtalene.",
        },
      ],
    },
    {
      name: "Pasientobservasjon og vurdering",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        {
          text: "Observerer og vurderer pasientens behov",
          helpText:
            "Studenten bruker systematiske observasjoner (f.eks. NEWS2) og tar hensyn til både fysiske, psykiske og sosiale behov.",
        },
        { text: "Gjenkjenner endringer i pasientens tilstand og handler deretter" },
        {
          text: "Dokumenterer observasjoner og tiltak presist og i tråd med regelverket",
          helpText: "Gjelder dokumentasjon i pasientjournal etter helsepersonelloven.",
        },
      ],
    },
    {
      name: "Sykepleieprosedyrer og pasientsikkerhet",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        { text: "Utfører sykepleieprosedyrer hygienisk og korrekt" },
        {
          text: "Følger rutiner for smittevern og basale smittevernrutiner",
          helpText: "Håndhygiene, bruk av hansker og beskyttelsesutstyr, renhold av utstyr.",
        },
        { text: "Bidrar til trygg legemiddelhåndtering under veiledning" },
      ],
    },
    {
      name: "Kommunikasjon og samhandling",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        { text: "Kommuniserer respektfullt med pasienter og pårørende" },
        { text: "Samarbeider med andre yrkesgrupper om pasientens behandling" },
        { text: "Gir og tar imot tilbakemeldinger på en konstruktiv måte" },
      ],
    },
    {
      name: "Profesjonell holdning og refleksjon",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        {
          text: "Reflekterer over egen praksis og etiske problemstillinger",
          helpText: "Bruk gjerne eksempler fra konkrete pasientsituasjoner.",
        },
        { text: "Tar ansvar for egen læring og oppsøker læringssituasjoner" },
        { text: "Overholder taushetsplikten og opptrer profesjonelt" },
      ],
    },
  ],
};

const MEDICATION_FORM: DemoForm = {
  name: "Legemiddelhåndtering",
  isMainForm: false,
  groups: [
    {
      name: "Legemiddelhåndtering",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        { text: "Beregner doser korrekt", helpText: "Inkluderer omregning mellom enheter og infusjonshastighet." },
        { text: "Kontrollerer legemidler etter de sju R-ene før administrering" },
        { text: "Observerer og dokumenterer virkning og bivirkning" },
        { text: "Informerer pasienten om legemidlene på en forståelig måte" },
      ],
    },
  ],
};

const WOUND_CARE_FORM: DemoForm = {
  name: "Sårstell og infeksjonsforebygging",
  isMainForm: false,
  groups: [
    {
      name: "Sårstell og infeksjonsforebygging",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        { text: "Vurderer og dokumenterer sårets tilstand" },
        { text: "Utfører sårstell med aseptisk teknikk" },
        { text: "Veileder pasienten i forebygging av infeksjon" },
      ],
    },
  ],
};

const SELF_ASSESSMENT_TEXTS = [
  [
    "Jeg har blitt tryggere på å ta imot rapport og prioritere oppgavene mine gjennom vakten.",
    "Jeg har lært mye om observasjon av eldre pasienter med sammensatte sykdomsbilder.",
    "Jeg har fått øvd på stell og mobilisering, og på å snakke med pårørende.",
    "Jeg har lært å bruke NEWS2 og å melde fra når pasientens tilstand endrer seg.",
  ],
  [
    "Jeg vil bli bedre på dokumentasjon og på å skrive presist i journalen.",
    "Jeg vil arbeide mer med legemiddelhåndtering og dosering.",
    "Jeg ønsker å ta mer ansvar for egne pasienter og planlegge dagen selv.",
    "Jeg vil øve mer på samtaler med pasienter som har kognitiv svikt.",
  ],
  [
    "Veiledningen er god, og jeg får tilbakemeldinger fortløpende.",
    "Jeg får god veiledning, men skulle gjerne hatt flere faste veiledningssamtaler.",
    "Veilederen min er tilgjengelig og gir meg utfordringer som passer.",
    "Jeg opplever veiledningen som trygg og lærerik.",
  ],
];

const SUPERVISOR_COMMENTS = [
  "Gode, systematiske observasjoner. Husk å dokumentere fortløpende.",
  "Viser god forståelse for pasientens situasjon og tar initiativ.",
  "Trenger fortsatt støtte ved endringer i tilstanden, men er på god vei.",
  "Kommuniserer godt med pasientene og er godt likt i avdelingen.",
];

const STUDENT_COMMENTS = [
  "Her føler jeg at jeg har hatt god framgang.",
  "Dette vil jeg gjerne øve mer på.",
  "Jeg er usikker på om jeg vurderer meg selv riktig her.",
];

export async function seedDemo(
  db: Db,
  today = new Date(),
): Promise<{ seeded: boolean; logins: DemoLogin[] }> {
  const seeded = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [existing] = await tx.select({ id: users.id }).from(users).limit(1);
    if (existing) return false;
    await insertDemo(tx, today);
    return true;
  });
  return { seeded, logins: DEMO_LOGINS };
}

async function insertDemo(tx: Tx, today: Date): Promise<void> {
  const id = await insertPeople(tx);
  const admin = id(ADMIN);
  const [teacher1, teacher2, teacher3] = TEACHERS.map(id);
  const [supervisor1, supervisor2, supervisor3, supervisor4] = SUPERVISORS.map(id);
  const studentIds = STUDENTS.map(id);

  const current = semesterFor(today);
  const previous = previousSemester(current);
  if (!previous) throw new Error(`No semester before ${current.name}`);
  const [currentPeriod, previousPeriod] = await tx
    .insert(periods)
    .values([current, previous])
    .returning({ id: periods.id });

  const [nursingHome, specialist, homeCare] = await tx
    .insert(subjects)
    .values([SUBJECTS.nursingHome, SUBJECTS.specialist, SUBJECTS.homeCare])
    .returning({ id: subjects.id });

  const [classA, classB, classOld] = await tx
    .insert(classes)
    .values([
      { subjectId: nursingHome.id, periodId: currentPeriod.id, ...classDates(current, 0) },
      { subjectId: specialist.id, periodId: currentPeriod.id, ...classDates(current, 7) },
      { subjectId: homeCare.id, periodId: previousPeriod.id, ...classDates(previous, 0) },
    ])
    .returning();

  await tx.insert(classTeachers).values([
    { classId: classA.id, userId: teacher1 },
    { classId: classA.id, userId: teacher2 },
    { classId: classB.id, userId: teacher3 },
    { classId: classB.id, userId: admin },
    { classId: classOld.id, userId: teacher1 },
  ]);
  await tx.insert(classAdvisors).values([
    { classId: classA.id, userId: supervisor1 },
    { classId: classA.id, userId: supervisor2 },
    { classId: classB.id, userId: supervisor3 },
    { classId: classB.id, userId: supervisor4 },
    { classId: classOld.id, userId: supervisor1 },
  ]);

  // Per class: the first ten students alternate between two teachers and two supervisors, the
  // tenth has no supervisor yet (so the student can invite one), the last two have neither.
  const placements = (classId: number, students: number[], teachers: number[], supervisors: number[]) =>
    students.map((studentUserId, i) => ({
      classId,
      studentUserId,
      teacherUserId: i < 10 ? teachers[i % 2] : null,
      advisorUserId: i < 9 ? supervisors[i % 2] : null,
    }));
  const refsA = await tx
    .insert(studentReferences)
    .values(placements(classA.id, studentIds.slice(0, 12), [teacher1, teacher2], [supervisor1, supervisor2]))
    .returning();
  const refsB = await tx
    .insert(studentReferences)
    .values(placements(classB.id, studentIds.slice(12, 24), [teacher3, admin], [supervisor3, supervisor4]))
    .returning();
  const oldStudents = studentIds.slice(0, 4);
  const refsOld = await tx
    .insert(studentReferences)
    .values(
      oldStudents.map((studentUserId) => ({
        classId: classOld.id,
        studentUserId,
        teacherUserId: teacher1,
        advisorUserId: supervisor1,
        createdAt: instant(previous.startDate, 14),
      })),
    )
    .returning();

  // Student 02 is followed by a second supervisor as well as the assigned one.
  await tx.insert(studentExtraSupervisors).values({
    studentReferenceId: refsA[1].id,
    userId: supervisor1,
    roleId: ROLE.Advisor,
  });

  const membership = (userId: number, subject: { subjectCode: string; name: string }, semester: Semester, active: boolean) => ({
    userId,
    groupId: `fc:fs:fs:emne:example.org:${subject.subjectCode}:1`,
    groupType: "fc:fs:emne",
    subjectCode: subject.subjectCode,
    subjectVersion: "1",
    displayName: subject.name,
    active,
    notBefore: instant(semester.startDate, 0),
    notAfter: instant(semester.endDate, 22),
    fsRoles: ["student"],
    fetchedAt: today,
  });
  await tx.insert(userAffiliations).values([
    ...studentIds.slice(0, 12).map((userId) => membership(userId, SUBJECTS.nursingHome, current, true)),
    ...studentIds.slice(12, 24).map((userId) => membership(userId, SUBJECTS.specialist, current, true)),
    ...oldStudents.map((userId) => membership(userId, SUBJECTS.homeCare, previous, false)),
    membership(id(STUDENT_WITHOUT_CLASS), SUBJECTS.specialist, current, true),
  ]);

  const mainForm = await insertForm(tx, MAIN_FORM);
  const medicationForm = await insertForm(tx, MEDICATION_FORM);
  const woundCareForm = await insertForm(tx, WOUND_CARE_FORM);

  const schemesA = await insertSchemes(tx, classA.id, [mainForm.id, medicationForm.id], instant(current.startDate, 8));
  await insertSchemes(tx, classB.id, [mainForm.id, woundCareForm.id], instant(current.startDate, 8));
  const schemesOld = await insertSchemes(tx, classOld.id, [mainForm.id], instant(previous.startDate, 8));

  await tx.insert(expectations).values([
    ...expectationRows(classA.id, mainForm, admin),
    ...expectationRows(classB.id, mainForm, admin),
    ...expectationRows(classOld.id, mainForm, admin),
  ]);

  // Current semester, class A, mid-semester: some students and their supervisors have started.
  const earliest = instant(current.startDate, 8);
  const daysAgo = (days: number) => latest(earliest, new Date(today.getTime() - days * 86_400_000));
  for (const [i, ref] of refsA.slice(0, 4).entries()) {
    const sentAt = i < 3 ? daysAgo(10 - i) : null;
    await insertAnswerSet(tx, mainForm, {
      assignmentId: schemesA.mid,
      studentUserId: ref.studentUserId,
      authorUserId: ref.studentUserId,
      authorRoleId: ROLE.Student,
      isMidSemester: true,
      sentAt,
      at: sentAt ?? daysAgo(2),
      seed: i,
      // Student 04 has only begun: a draft with the first groups filled in.
      groupLimit: i < 3 ? undefined : 2,
    });
  }
  for (const [i, ref] of refsA.slice(0, 3).entries()) {
    if (ref.advisorUserId === null) continue;
    const sentAt = i < 2 ? daysAgo(7 - i) : null;
    await insertAnswerSet(tx, mainForm, {
      assignmentId: schemesA.mid,
      studentUserId: ref.studentUserId,
      authorUserId: ref.advisorUserId,
      authorRoleId: ROLE.Advisor,
      isMidSemester: true,
      sentAt,
      at: sentAt ?? daysAgo(1),
      seed: i + 1,
    });
  }
  const firstRef = refsA[0];
  if (firstRef.teacherUserId !== null) {
    await insertAnswerSet(tx, mainForm, {
      assignmentId: schemesA.mid,
      studentUserId: firstRef.studentUserId,
      authorUserId: firstRef.teacherUserId,
      authorRoleId: ROLE.Teacher,
      isMidSemester: true,
      sentAt: daysAgo(5),
      at: daysAgo(5),
      seed: 2,
    });
  }

  await insertMidConfirmedSigningForm(tx, refsB[6].id, classB.midSemesterDate, today);
  await insertGivenWarning(tx, refsB[5], daysAgo(3), daysAgo(2));

  await insertHistory(tx, {
    previous,
    classOld,
    refsOld,
    mainForm,
    schemes: schemesOld,
    teacherUserId: teacher1,
    advisorUserId: supervisor1,
  });
}

async function insertPeople(tx: Tx): Promise<(person: DemoPerson) => number> {
  const inserted = await tx
    .insert(users)
    .values(
      PEOPLE.map((p) => ({
        displayName: p.name,
        email: p.email,
        phoneNumber: p.phoneNumber ?? null,
        isActive: p.isActive ?? true,
      })),
    )
    .returning({ id: users.id, email: users.email });
  const ids = new Map(inserted.map((u) => [u.email, u.id]));
  const id = (person: DemoPerson) => {
    const userId = ids.get(person.email);
    if (userId === undefined) throw new Error(`Demo user ${person.email} was not inserted`);
    return userId;
  };
  await tx.insert(userRoles).values(PEOPLE.flatMap((p) => p.roles.map((roleId) => ({ userId: id(p), roleId }))));
  return id;
}

interface SeededQuestion {
  id: number;
  index: number;
}

interface SeededForm {
  id: number;
  groups: { type: QuestionGroupType; questions: SeededQuestion[] }[];
}

async function insertForm(tx: Tx, form: DemoForm): Promise<SeededForm> {
  const [row] = await tx
    .insert(forms)
    .values({ name: form.name, isMainForm: form.isMainForm })
    .returning({ id: forms.id });
  const groups: SeededForm["groups"] = [];
  let questionIndex = 0;
  for (const [g, group] of form.groups.entries()) {
    const [groupRow] = await tx
      .insert(formQuestionGroups)
      .values({
        formId: row.id,
        name: group.name,
        order: g + 1,
        type: group.type,
        options: group.type === QUESTION_GROUP_TYPE.Grading ? [...DEFAULT_GRADING_OPTIONS] : [],
      })
      .returning({ id: formQuestionGroups.id });
    const questionRows = await tx
      .insert(formQuestions)
      .values(
        group.questions.map((q, i) => ({
          groupId: groupRow.id,
          text: q.text,
          order: i + 1,
          helpText: q.helpText ?? null,
        })),
      )
      .returning({ id: formQuestions.id, order: formQuestions.order });
    const questions = questionRows
      .toSorted((a, b) => a.order - b.order)
      .map((q) => ({ id: q.id, index: questionIndex++ }));
    groups.push({ type: group.type, questions });
  }
  return { id: row.id, groups };
}

async function insertSchemes(
  tx: Tx,
  classId: number,
  formIds: number[],
  createdAt: Date,
): Promise<{ mid: number; end: number }> {
  const [mid] = await tx
    .insert(assignments)
    .values({ classId, isMidSemester: true, createdAt })
    .returning({ id: assignments.id });
  const [end] = await tx
    .insert(assignments)
    .values({ classId, isMidSemester: false, createdAt })
    .returning({ id: assignments.id });
  await tx
    .insert(assignmentForms)
    .values([mid.id, end.id].flatMap((assignmentId) => formIds.map((formId) => ({ assignmentId, formId }))));
  return { mid: mid.id, end: end.id };
}

/** Mid-semester the admin expects "Veiledet" (some "Delvis selvstendig"), at the end one step more. */
function expectationRows(classId: number, form: SeededForm, setByUserId: number) {
  return gradingQuestions(form).flatMap((q) => {
    const mid = q.index % 3 === 0 ? 1 : 2;
    return [
      { classId, formId: form.id, questionId: q.id, isMidSemester: true, value: String(mid), setByUserId },
      { classId, formId: form.id, questionId: q.id, isMidSemester: false, value: String(mid - 1), setByUserId },
    ];
  });
}

function gradingQuestions(form: SeededForm): SeededQuestion[] {
  return form.groups.filter((g) => g.type === QUESTION_GROUP_TYPE.Grading).flatMap((g) => g.questions);
}

/** A plausible, repeatable grade index: mostly "Delvis selvstendig" to "Assistert", now and then "Ikke relevant". */
function grade(seed: number, questionIndex: number, isMidSemester: boolean): string {
  if ((seed + questionIndex) % 11 === 10) return "5";
  const step = [1, 2, 1, 3, 2, 1, 2][(seed * 3 + questionIndex) % 7];
  return String(isMidSemester ? step : Math.max(0, step - 1));
}

async function insertAnswerSet(
  tx: Tx,
  form: SeededForm,
  set: {
    assignmentId: number;
    studentUserId: number;
    authorUserId: number;
    authorRoleId: RoleId;
    isMidSemester: boolean;
    sentAt: Date | null;
    at: Date;
    seed: number;
    groupLimit?: number;
  },
): Promise<void> {
  const [row] = await tx
    .insert(answerSets)
    .values({
      formId: form.id,
      assignmentId: set.assignmentId,
      studentUserId: set.studentUserId,
      authorUserId: set.authorUserId,
      authorRoleId: set.authorRoleId,
      isMidSemester: set.isMidSemester,
      sentAt: set.sentAt,
      createdAt: set.at,
      updatedAt: set.at,
    })
    .returning({ id: answerSets.id });

  const isStudent = set.authorRoleId === ROLE.Student;
  const rows = form.groups.slice(0, set.groupLimit).flatMap((group) => {
    // The text group is the student's own reflection; supervisors and teachers grade only.
    if (group.type === QUESTION_GROUP_TYPE.TextInput) {
      if (!isStudent) return [];
      return group.questions.map((q, i) => ({
        answerSetId: row.id,
        questionId: q.id,
        value: SELF_ASSESSMENT_TEXTS[i % SELF_ASSESSMENT_TEXTS.length][set.seed % 4],
        updatedAt: set.at,
      }));
    }
    return group.questions.map((q) => {
      const comment = commentFor(isStudent, set.seed, q.index);
      return {
        answerSetId: row.id,
        questionId: q.id,
        value: grade(set.seed, q.index, set.isMidSemester),
        comment,
        commentedAt: comment ? set.at : null,
        updatedAt: set.at,
      };
    });
  });
  if (rows.length > 0) await tx.insert(answers).values(rows);
}

function commentFor(isStudent: boolean, seed: number, questionIndex: number): string | null {
  if ((seed + questionIndex) % 5 !== 3) return null;
  const comments = isStudent ? STUDENT_COMMENTS : SUPERVISOR_COMMENTS;
  return comments[(seed + questionIndex) % comments.length];
}

/**
 * Student 19 (SYK2002, followed by laerer3 and veileder3) has had the mid-semester assessment: the
 * teacher has confirmed the signing form's mid-semester part, so the demo shows a form in progress.
 * Confirmed on the class's mid-semester date, or today while that is still ahead.
 */
async function insertMidConfirmedSigningForm(tx: Tx, studentReferenceId: number, midSemesterDate: string | null, today: Date): Promise<void> {
  const todayIso = osloDate(today);
  const confirmedOn = midSemesterDate !== null && midSemesterDate < todayIso ? midSemesterDate : todayIso;
  const at = new Date(Math.min(instant(confirmedOn, 9).getTime(), today.getTime()));
  await tx.insert(signingForms).values({
    studentReferenceId,
    midSemesterCompletedDate: confirmedOn,
    midSemesterSpecificCompetenceAreasBegun: true,
    midSemesterStudentHasGivenFeedback: true,
    createdAt: at,
    updatedAt: at,
  });
}

/** The previous semester, finished: everything answered and sent, signing forms signed and locked. */
async function insertHistory(
  tx: Tx,
  h: {
    previous: Semester;
    classOld: { midSemesterDate: string | null; endSemesterDate: string | null };
    refsOld: { id: number; studentUserId: number }[];
    mainForm: SeededForm;
    schemes: { mid: number; end: number };
    teacherUserId: number;
    advisorUserId: number;
  },
): Promise<void> {
  const midDate = h.classOld.midSemesterDate ?? h.previous.startDate;
  const endDate = h.classOld.endSemesterDate ?? h.previous.endDate;
  for (const [i, ref] of h.refsOld.entries()) {
    for (const isMidSemester of [true, false]) {
      const day = isMidSemester ? midDate : endDate;
      const authors: { userId: number; roleId: RoleId; daysBefore: number }[] = [
        { userId: ref.studentUserId, roleId: ROLE.Student, daysBefore: 3 },
        { userId: h.advisorUserId, roleId: ROLE.Advisor, daysBefore: 2 },
        { userId: h.teacherUserId, roleId: ROLE.Teacher, daysBefore: 1 },
      ];
      for (const [a, author] of authors.entries()) {
        const at = instant(addDays(day, -author.daysBefore), 10 + a);
        await insertAnswerSet(tx, h.mainForm, {
          assignmentId: isMidSemester ? h.schemes.mid : h.schemes.end,
          studentUserId: ref.studentUserId,
          authorUserId: author.userId,
          authorRoleId: author.roleId,
          isMidSemester,
          sentAt: at,
          at,
          seed: i + a,
        });
      }
    }
  }

  await tx.insert(signingForms).values(
    h.refsOld.map((ref, i) => ({
      studentReferenceId: ref.id,
      attendancePassed: true,
      workRequirementsPassed: true,
      specificCompetenceAreasPassed: true,
      generalCompetenceAreasPassed: true,
      teacherComment:
        i === 2
          ? "Studenten fikk varsel ved midtvurderingen, arbeidet godt med læringsmålene og har bestått praksis."
          : "Studenten har vist god faglig progresjon gjennom hele praksisperioden.",
      overallPassed: true,
      isLocked: true,
      midSemesterCompletedDate: midDate,
      endSemesterCompletedDate: endDate,
      midSemesterSpecificCompetenceAreasBegun: true,
      midSemesterStudentHasGivenFeedback: true,
      signedByStudentUserId: ref.studentUserId,
      signedByStudentDate: instant(endDate, 9),
      signedByAdvisorUserId: h.advisorUserId,
      signedByAdvisorDate: instant(endDate, 11),
      signedByTeacherUserId: h.teacherUserId,
      signedByTeacherDate: instant(endDate, 13),
      createdAt: instant(midDate, 9),
      updatedAt: instant(endDate, 13),
    })),
  );

  const warned = h.refsOld[2];
  const givenAt = instant(addDays(midDate, 3), 12);
  await tx.insert(warnings).values({
    studentReferenceId: warned.id,
    teacherUserId: h.teacherUserId,
    comment:
      "Ved midtvurderingen er det bekymring for at du ikke når læringsutbyttet innen legemiddelhåndtering og dokumentasjon.",
    passRequirement:
      "Du må vise at du selvstendig kan beregne doser, kontrollere legemidler og dokumentere administrering korrekt.",
    passRequirementSummary:
      "Legemiddelhåndtering og dokumentasjon må vurderes som minst «Delvis selvstendig» ved sluttvurderingen.",
    createdAt: instant(addDays(midDate, 2), 14),
    updatedAt: givenAt,
    submittedAt: givenAt,
    studentConfirmedWarningAt: instant(addDays(midDate, 5), 8),
  });
}

/**
 * This semester, student 18 (Aksel Lie, SYK2002, followed by the admin as teacher and by Jonas
 * Eriksen) has been given a warning and has not confirmed it yet: the demo shows the student's alert.
 */
async function insertGivenWarning(tx: Tx, ref: { id: number; teacherUserId: number | null }, createdAt: Date, givenAt: Date): Promise<void> {
  if (ref.teacherUserId === null) throw new Error("the warned demo student has no teacher");
  await tx.insert(warnings).values({
    studentReferenceId: ref.id,
    teacherUserId: ref.teacherUserId,
    comment:
      "Du kommer ofte for sent til vakt og har flere ganger ikke meldt fra om endringer i pasientenes tilstand. Det er fare for at du ikke når læringsutbyttet om pasientsikkerhet.",
    passRequirement:
      "Du må møte presis til alle vakter resten av perioden, rapportere endringer i pasientens tilstand til veileder med en gang, og bruke NEWS2 ved hver observasjon.",
    passRequirementSummary: "Presis oppmøte og fortløpende rapportering av endringer i pasientens tilstand.",
    createdAt,
    updatedAt: givenAt,
    submittedAt: givenAt,
  });
}

/** Mid-semester date about halfway through, end-semester date two weeks before the end. */
function classDates(semester: Semester, offsetDays: number) {
  const length = (Date.parse(semester.endDate) - Date.parse(semester.startDate)) / 86_400_000;
  return {
    midSemesterDate: addDays(semester.startDate, Math.floor(length / 2) + offsetDays),
    endSemesterDate: addDays(semester.endDate, -14 + offsetDays),
  };
}

function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** An instant on a calendar day; the hour is UTC, which is daytime in Norway either way. */
function instant(isoDate: string, hourUtc: number): Date {
  return new Date(`${isoDate}T${String(hourUtc).padStart(2, "0")}:00:00Z`);
}

function latest(a: Date, b: Date): Date {
  return a.getTime() > b.getTime() ? a : b;
}
