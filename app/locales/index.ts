import type { Resource } from "i18next";
import en from "./en";
import enAccessibility from "./en/accessibility.json";
import enAdminClass from "./en/adminClass.json";
import enAdminForms from "./en/adminForms.json";
import enDocuments from "./en/documents.json";
import enScale from "./en/scale.json";
import enAdminUsers from "./en/adminUsers.json";
import enAdminSemesters from "./en/adminSemesters.json";
import enSupervisor from "./en/supervisor.json";
import enPrivacyData from "./en/privacyData.json";
import enReminders from "./en/reminders.json";
import nb from "./nb";
import nbAccessibility from "./nb/accessibility.json";
import nbAdminClass from "./nb/adminClass.json";
import nbAdminForms from "./nb/adminForms.json";
import nbDocuments from "./nb/documents.json";
import nbScale from "./nb/scale.json";
import nbAdminUsers from "./nb/adminUsers.json";
import nbAdminSemesters from "./nb/adminSemesters.json";
import nbSupervisor from "./nb/supervisor.json";
import nbPrivacyData from "./nb/privacyData.json";
import nbReminders from "./nb/reminders.json";

export { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "./languages";

/** Both languages (the server, tests). The client loads one language at a time: entry.client.tsx. */
const resources = {
  nb: { ...nb, scale: nbScale, documents: nbDocuments, supervisor: nbSupervisor, adminUsers: nbAdminUsers, adminSemesters: nbAdminSemesters, privacyData: nbPrivacyData, accessibility: nbAccessibility, reminders: nbReminders, adminClass: nbAdminClass, adminForms: nbAdminForms },
  en: { ...en, scale: enScale, documents: enDocuments, supervisor: enSupervisor, adminUsers: enAdminUsers, adminSemesters: enAdminSemesters, privacyData: enPrivacyData, accessibility: enAccessibility, reminders: enReminders, adminClass: enAdminClass, adminForms: enAdminForms },
} satisfies Resource;

export default resources;

// Keys are checked by the locale-parity test (every key in both languages) rather than by types,
// because many keys are built at run time (role names, validation messages carried as keys).
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
  }
}
