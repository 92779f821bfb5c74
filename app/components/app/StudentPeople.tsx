import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { LinkButton, Tag, VisuallyHidden } from "~/components/ui";

interface Person {
  userId: number;
  displayName: string;
  email: string;
}

/** Who follows the student this semester, with their addresses; without a supervisor, the way to invite one. */
export function StudentPeople({
  teacher,
  supervisor,
  extraSupervisors,
  mayInvite,
}: {
  teacher: Person | null;
  supervisor: Person | null;
  extraSupervisors: Person[];
  mayInvite: boolean;
}) {
  const { t } = useTranslation("student");
  return (
    <>
      <h2>{t("forms.peopleHeading")}</h2>
      <ul className="student-people">
        {teacher ? (
          <li>
            <Tag variant="info">
              <abbr title={t("forms.teacherRole")}>PL</abbr>
            </Tag>{" "}
            <VisuallyHidden>{t("forms.teacherRole")}: </VisuallyHidden>
            {teacher.displayName} <a href={`mailto:${teacher.email}`}>{teacher.email}</a>
          </li>
        ) : (
          <li>{t("forms.noTeacher")}</li>
        )}
        {supervisor ? (
          <li>
            <Tag variant="info">
              <abbr title={t("forms.supervisorRole")}>PV</abbr>
            </Tag>{" "}
            <VisuallyHidden>{t("forms.supervisorRole")}: </VisuallyHidden>
            {supervisor.displayName} <a href={`mailto:${supervisor.email}`}>{supervisor.email}</a>
          </li>
        ) : null}
        {extraSupervisors.map((p) => (
          <li key={p.userId}>
            <Tag variant="info">
              <abbr title={t("forms.supervisorRole")}>PV</abbr>
            </Tag>{" "}
            <VisuallyHidden>{t("forms.supervisorRole")}: </VisuallyHidden>
            {p.displayName} <span className="app-meta">({t("forms.extraSupervisor")})</span>{" "}
            <a href={`mailto:${p.email}`}>{p.email}</a>
          </li>
        ))}
      </ul>
      {mayInvite ? (
        <>
          <p>{t("forms.noSupervisor")}</p>
          <LinkButton to={href("/student/supervisor/invite")}>{t("forms.inviteSupervisor")}</LinkButton>
        </>
      ) : null}
    </>
  );
}
