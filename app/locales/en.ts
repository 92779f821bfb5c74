// The namespaces of one language that every page may need: the client loads only the page's
// language (ADR 0012). scale, documents, supervisor, adminSemesters, adminUsers, adminClass, adminForms, accessibility, todo, records and admin are provided by the
// few pages that use them
// (app/i18n-client/page-namespaces.ts); index.ts adds them for the server.
import student from "./en/student.json";
import teacher from "./en/teacher.json";
import placement from "./en/placement.json";
import answers from "./en/answers.json";
import signing from "./en/signing.json";
import warnings from "./en/warnings.json";
import auth from "./en/auth.json";
import common from "./en/common.json";
import ui from "./en/ui.json";

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
