import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { PeopleTable, type Person } from "~/components/app/PeopleTable";

interface Staff extends Person {
  /** Students in the class this person follows up. */
  studentCount: number;
}

interface Student extends Person {
  teacherName: string | null;
  supervisorName: string | null;
}

const userPage = (p: Person) => href("/admin/users/:userId", { userId: String(p.userId) });

/** The class's teachers, students and supervisors, each a table that links to the person. */
export function AdminClassPeople({
  classId,
  teachers,
  students,
  supervisors,
}: {
  classId: number;
  teachers: Staff[];
  students: Student[];
  supervisors: Staff[];
}) {
  const { t } = useTranslation("adminClass");
  const peopleText = {
    nameHeader: t("people.name"),
    emailHeader: t("people.email"),
    deactivatedLabel: t("people.deactivated"),
  };
  return (
    <>
      <h2>{t("people.teachers", { count: teachers.length })}</h2>
      <PeopleTable
        {...peopleText}
        caption={t("people.teachersCaption")}
        empty={t("people.noTeachers")}
        people={teachers}
        href={userPage}
        columns={[{ header: t("people.assignedStudents"), numeric: true, cell: (p) => p.studentCount }]}
      />

      <h2>{t("people.students", { count: students.length })}</h2>
      <PeopleTable
        {...peopleText}
        caption={t("people.studentsCaption")}
        empty={t("people.noStudents")}
        people={students}
        href={userPage}
        columns={[
          { header: t("people.teacher"), cell: (p) => p.teacherName ?? t("people.none") },
          { header: t("people.supervisor"), cell: (p) => p.supervisorName ?? t("people.none") },
        ]}
      />

      <h2>{t("people.supervisors", { count: supervisors.length })}</h2>
      <PeopleTable
        {...peopleText}
        caption={t("people.supervisorsCaption")}
        empty={t("people.noSupervisors")}
        people={supervisors}
        href={(p) =>
          href("/admin/class/:classId/supervisor/:userId", { classId: String(classId), userId: String(p.userId) })
        }
        columns={[{ header: t("people.followedStudents"), numeric: true, cell: (p) => p.studentCount }]}
      />
    </>
  );
}
