import type { Resource } from "i18next";
import enAdminSemesters from "./en/adminSemesters.json";
import enAdminUsers from "./en/adminUsers.json";
import enAdminForms from "./en/adminForms.json";
import enAdminClass from "./en/adminClass.json";
import nbAdminSemesters from "./nb/adminSemesters.json";
import nbAdminUsers from "./nb/adminUsers.json";
import nbAdminForms from "./nb/adminForms.json";
import nbAdminClass from "./nb/adminClass.json";
import enStudent from "./en/student.json";
import nbStudent from "./nb/student.json";
import enTeacher from "./en/teacher.json";
import nbTeacher from "./nb/teacher.json";
import enSupervisor from "./en/supervisor.json";
import nbSupervisor from "./nb/supervisor.json";
import enPlacement from "./en/placement.json";
import nbPlacement from "./nb/placement.json";
import enAnswers from "./en/answers.json";
import nbAnswers from "./nb/answers.json";
import enScale from "./en/scale.json";
import nbScale from "./nb/scale.json";
import enSigning from "./en/signing.json";
import nbSigning from "./nb/signing.json";
import enDocuments from "./en/documents.json";
import nbDocuments from "./nb/documents.json";
import enWarnings from "./en/warnings.json";
import nbWarnings from "./nb/warnings.json";
import enAuth from "./en/auth.json";
import enCommon from "./en/common.json";
import enUi from "./en/ui.json";
import nbAuth from "./nb/auth.json";
import nbCommon from "./nb/common.json";
import nbUi from "./nb/ui.json";

export const LANGUAGES = ["nb", "en"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "nb";

const resources = {
  nb: {
    common: nbCommon,
    auth: nbAuth,
    ui: nbUi,
    adminSemesters: nbAdminSemesters,
    adminUsers: nbAdminUsers,
    adminForms: nbAdminForms,
    adminClass: nbAdminClass,
    student: nbStudent,
    teacher: nbTeacher,
    supervisor: nbSupervisor,
    placement: nbPlacement,
    answers: nbAnswers,
    scale: nbScale,
    signing: nbSigning,
    documents: nbDocuments,
    warnings: nbWarnings,
  },
  en: {
    common: enCommon,
    auth: enAuth,
    ui: enUi,
    adminSemesters: enAdminSemesters,
    adminUsers: enAdminUsers,
    adminForms: enAdminForms,
    adminClass: enAdminClass,
    student: enStudent,
    teacher: enTeacher,
    supervisor: enSupervisor,
    placement: enPlacement,
    answers: enAnswers,
    scale: enScale,
    signing: enSigning,
    documents: enDocuments,
    warnings: enWarnings,
  },
} satisfies Resource;

export default resources;

// Keys are checked by the locale-parity test (every key in both languages) rather than by types,
// because many keys are built at run time (role names, validation messages carried as keys).
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
  }
}
