import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ClassTable, type ClassRow } from "./ClassTable";

export interface ClassesHomeProps {
  /** The i18n key prefix of the area's home texts, e.g. "home.teacher". */
  texts: string;
  name: string;
  current: ClassRow[];
  earlier: ClassRow[];
  showOwn?: boolean;
  /** Makes each class a link to its page in the area. */
  linkTo?: (classId: number) => string;
  /** What comes first, under the greeting (the role's to-do). */
  children?: ReactNode;
}

/** A role's start page: greeting, this semester's classes, and earlier ones. */
export function ClassesHome({ texts, name, current, earlier, showOwn, linkTo, children }: ClassesHomeProps) {
  const { t } = useTranslation();
  return (
    <div className="app-content">
      <h1>{t(`${texts}.title`)}</h1>
      <p className="app-lead">{t("home.greeting", { name })}</p>
      {children}
      <h2>{t(`${texts}.current`)}</h2>
      {current.length === 0 ? (
        <p>{t(`${texts}.noClass`, { defaultValue: t("classes.none") })}</p>
      ) : (
        <ClassTable caption={t(`${texts}.current`)} rows={current} showOwn={showOwn} linkTo={linkTo} />
      )}
      {earlier.length > 0 ? (
        <>
          <h2>{t(`${texts}.earlier`)}</h2>
          <ClassTable caption={t(`${texts}.earlier`)} rows={earlier} showOwn={showOwn} linkTo={linkTo} />
        </>
      ) : null}
    </div>
  );
}
