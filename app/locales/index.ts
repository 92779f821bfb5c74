import type { Resource } from "i18next";
import en from "./en";
import enAccessibility from "./en/accessibility.json";
import enAdminClass from "./en/adminClass.json";
import enAdminClassMessages from "./en/adminClassMessages.json";
import enAdminForms from "./en/adminForms.json";
import enDocuments from "./en/documents.json";
import enScale from "./en/scale.json";
import enAdminUsers from "./en/adminUsers.json";
import enAdminSemesters from "./en/adminSemesters.json";
import enSupervisor from "./en/supervisor.json";
import enPrivacyData from "./en/privacyData.json";
import enReminders from "./en/reminders.json";
import enMail from "./en/mail.json";
import enAuthPages from "./en/authPages.json";
import enSigningCheck from "./en/signingCheck.json";
import enConfirmSteps from "./en/confirmSteps.json";
import enTodo from "./en/todo.json";
import enRecords from "./en/records.json";
import enAdmin from "./en/admin.json";
import nb from "./nb";
import nbAccessibility from "./nb/accessibility.json";
import nbAdminClass from "./nb/adminClass.json";
import nbAdminClassMessages from "./nb/adminClassMessages.json";
import nbAdminForms from "./nb/adminForms.json";
import nbDocuments from "./nb/documents.json";
import nbScale from "./nb/scale.json";
import nbAdminUsers from "./nb/adminUsers.json";
import nbAdminSemesters from "./nb/adminSemesters.json";
import nbSupervisor from "./nb/supervisor.json";
import nbPrivacyData from "./nb/privacyData.json";
import nbReminders from "./nb/reminders.json";
import nbMail from "./nb/mail.json";
import nbAuthPages from "./nb/authPages.json";
import nbSigningCheck from "./nb/signingCheck.json";
import nbConfirmSteps from "./nb/confirmSteps.json";
import nbTodo from "./nb/todo.json";
import nbRecords from "./nb/records.json";
import nbAdmin from "./nb/admin.json";

export { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "./languages";

/**
 * The texts of the mails the server sends (log-in codes, the pause notice, the Vipps link code, the
 * welcome to a new supervisor, a given warning), merged into their namespaces here only: no page
 * shows them, so the browser's language chunk (nb.ts, en.ts) does not carry them. The log-in
 * providers' result pages, the Vipps link page and /debug/fs have their part of `auth` apart too (authPages.json): those
 * pages provide it themselves (page-namespaces.ts), so the chunk every page loads stays small.
 */
function withMail<
  T extends { auth: object; teacher: object; warnings: object },
  M extends { auth: object; teacher: object; warnings: object },
  P extends object,
>(
  texts: T,
  mail: M,
  authPages: P,
): Omit<T, "auth" | "teacher" | "warnings"> & {
  auth: T["auth"] & M["auth"] & P;
  teacher: T["teacher"] & M["teacher"];
  warnings: T["warnings"] & M["warnings"];
} {
  return {
    ...texts,
    auth: { ...texts.auth, ...mail.auth, ...authPages },
    teacher: { ...texts.teacher, ...mail.teacher },
    warnings: { ...texts.warnings, ...mail.warnings },
  };
}

// The admin's class page: the message after copying expected levels is made by its action, so its
// texts (adminClassMessages.json) are the server's only, outside the page's chunk.
/** Both languages (the server, tests). The client loads one language at a time: entry.client.tsx. */
const resources = {
  nb: {
    ...withMail(nb, nbMail, nbAuthPages),
    scale: nbScale,
    documents: nbDocuments,
    supervisor: nbSupervisor,
    adminUsers: nbAdminUsers,
    adminSemesters: nbAdminSemesters,
    privacyData: nbPrivacyData,
    accessibility: nbAccessibility,
    reminders: nbReminders,
    adminClass: { ...nbAdminClass, ...nbAdminClassMessages },
    adminForms: nbAdminForms,
    todo: nbTodo,
    signingCheck: nbSigningCheck,
    confirmSteps: nbConfirmSteps,
    records: nbRecords,
    admin: nbAdmin,
  },
  en: {
    ...withMail(en, enMail, enAuthPages),
    scale: enScale,
    documents: enDocuments,
    supervisor: enSupervisor,
    adminUsers: enAdminUsers,
    adminSemesters: enAdminSemesters,
    privacyData: enPrivacyData,
    accessibility: enAccessibility,
    reminders: enReminders,
    adminClass: { ...enAdminClass, ...enAdminClassMessages },
    adminForms: enAdminForms,
    todo: enTodo,
    signingCheck: enSigningCheck,
    confirmSteps: enConfirmSteps,
    records: enRecords,
    admin: enAdmin,
  },
} satisfies Resource;

export default resources;

// `t` stays untyped: i18next's resource types (`resources` here) made `tsc` about five times slower
// on these texts and typed every `t` by its namespace. A key handed from where it is made to where it
// is shown is typed instead (keys.ts: MessageKey, KeyOf), and the locale-parity test checks that
// every key is in both languages.
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
  }
}
