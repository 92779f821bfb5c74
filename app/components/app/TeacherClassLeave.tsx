import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { LinkButton } from "~/components/ui";

/**
 * Leaving the class: what it means, which of the teacher's students lose their teacher, and a link
 * to the page that asks first (and names them again).
 */
export function TeacherClassLeave({ classId, released }: { classId: number; released: { displayName: string }[] }) {
  const { t } = useTranslation("teacher");
  return (
    <section aria-labelledby="leave-heading">
      <h2 id="leave-heading">{t("class.leave.heading")}</h2>
      <p>{t("class.leave.text")}</p>
      {released.length > 0 ? (
        <p>
          {t("class.leave.released", {
            count: released.length,
            names: released.map((s) => s.displayName).join(", "),
          })}
        </p>
      ) : null}
      <p>
        <LinkButton variant="warning" to={href("/teacher/class/:classId/leave", { classId: String(classId) })}>
          {t("class.leave.submit")}
        </LinkButton>
      </p>
    </section>
  );
}
