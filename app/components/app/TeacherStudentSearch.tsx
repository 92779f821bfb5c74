import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { href } from "~/components/href";
import { Button, TextField } from "~/components/ui";
import { STUDENT_SEARCH_MAX_LENGTH } from "~/services/placements";

/**
 * The search above the list of students a teacher may take: a GET form, so a search is a link and
 * works without JavaScript; after a search, a link back to all of them.
 */
export function TeacherStudentSearch({ classId, q }: { classId: number; q: string }) {
  const { t } = useTranslation("teacher");
  return (
    <section aria-labelledby="student-search-heading">
      <h2 id="student-search-heading" className="ui-visually-hidden">
        {t("addStudents.searchHeading")}
      </h2>
      <Form
        method="get"
        action={href("/teacher/class/:classId/students/add", { classId: String(classId) })}
        className="teacher-picker-search"
      >
        <TextField
          label={t("addStudents.search")}
          name="q"
          type="search"
          width="20"
          autoComplete="off"
          spellCheck={false}
          maxLength={STUDENT_SEARCH_MAX_LENGTH}
          defaultValue={q}
        />
        <Button variant="secondary">{t("addStudents.searchSubmit")}</Button>
        {q ? (
          <p>
            <Link to={href("/teacher/class/:classId/students/add", { classId: String(classId) })}>
              {t("addStudents.showAll")}
            </Link>
          </p>
        ) : null}
      </Form>
    </section>
  );
}
