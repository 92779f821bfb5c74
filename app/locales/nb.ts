// The namespaces of one language that every page may need: the client loads only the page's
// language (ADR 0012). scale, documents, supervisor, adminSemesters, adminUsers, adminClass, adminForms, accessibility, todo, records and admin are provided by the
// few pages that use them
// (app/i18n-client/page-namespaces.ts); index.ts adds them for the server.
import student from "./nb/student.json";
import teacher from "./nb/teacher.json";
import placement from "./nb/placement.json";
import answers from "./nb/answers.json";
import signing from "./nb/signing.json";
import warnings from "./nb/warnings.json";
import auth from "./nb/auth.json";
import common from "./nb/common.json";
import ui from "./nb/ui.json";

export default {
  common,
  auth,
  ui,
  student,
  teacher,
  placement,
  answers,
  signing,
  warnings,
};
