import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { LinkButton } from "~/components/ui";
import { PeopleTable, type Person } from "./PeopleTable";

/** A student of the teacher's own, with their assigned supervisor (if any). */
export type TeacherClassStudent = Person & { supervisorName: string | null };

/** A supervisor of the class: attached to it, or invited by a student; and how many of its students they follow. */
export type TeacherClassSupervisor = Person & { attached: boolean; studentCount: number };

/** The class page's people, for its teachers: their own students and the class's supervisors, each with a link to add more. */
export function TeacherClassPeople({
  classId,
  myStudents,
  supervisors,
}: {
  classId: number;
  myStudents: TeacherClassStudent[];
  supervisors: TeacherClassSupervisor[];
}) {
  const { t } = useTranslation("teacher");
  const peopleText = {
    nameHeader: t("class.people.name"),
    emailHeader: t("class.people.email"),
    deactivatedLabel: t("class.people.deactivated"),
  };
  return (
    <>
      <h2 id="mine">{t("class.mine.heading", { count: myStudents.length })}</h2>
      <PeopleTable
        {...peopleText}
        caption={t("class.mine.caption")}
        empty={t("class.mine.none")}
        people={myStudents}
        href={(s) =>
          href("/teacher/class/:classId/student/:userId", { classId: String(classId), userId: String(s.userId) })
        }
        columns={[{ header: t("class.mine.supervisor"), cell: (s) => s.supervisorName ?? t("class.people.none") }]}
      />
      <p>
        <LinkButton variant="secondary" to={href("/teacher/class/:classId/students/add", { classId: String(classId) })}>
          {t("class.mine.add")}
        </LinkButton>
      </p>

      <h2 id="supervisors">{t("class.supervisors.heading", { count: supervisors.length })}</h2>
      <PeopleTable
        {...peopleText}
        caption={t("class.supervisors.caption")}
        empty={t("class.supervisors.none")}
        people={supervisors}
        href={(s) =>
          href("/teacher/class/:classId/supervisor/:userId", { classId: String(classId), userId: String(s.userId) })
        }
        columns={[
          {
            header: t("class.supervisors.how"),
            cell: (s) => (s.attached ? t("class.supervisors.addedToClass") : t("class.supervisors.invited")),
          },
          { header: t("class.supervisors.students"), numeric: true, cell: (s) => s.studentCount },
        ]}
      />
      {supervisors.some((s) => !s.attached) ? <p>{t("class.supervisors.invitedHint")}</p> : null}
      <p>
        <LinkButton
          variant="secondary"
          to={href("/teacher/class/:classId/supervisors/add", { classId: String(classId) })}
        >
          {t("class.supervisors.add")}
        </LinkButton>
      </p>
    </>
  );
}
