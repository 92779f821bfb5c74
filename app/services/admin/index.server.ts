// The admin domain's public surface for server code: loaders, actions and other domains' services.
export {
  adminClassPage,
  supervisorStudentsPage,
  byDisplayName,
  classHeader,
  classHeaderView,
  copyExpectations,
  createScheme,
  expectationSources,
  removeScheme,
  schemesOfClass,
  updateEndSemesterDate,
  updateMidSemesterDate,
} from "./classes.server";
export type { ClassHeader, CopiedForm, Scheme } from "./classes.server";
export { deleteForm, listForms, loadForm, saveForm } from "./forms.server";
export {
  addSubjectsToSemester,
  createNextSemester,
  findSemester,
  listSemesters,
  semesterPage,
} from "./semesters.server";
export type { SemesterRow } from "./semesters.server";
export { createSubject, findSubject, listSubjects, updateSubject } from "./subjects.server";
export {
  USERS_PAGE_SIZE,
  USER_SEARCH_MAX_LENGTH,
  escapeLike,
  getUserForEdit,
  listUsers,
  naturalSortKey,
  setUserActive,
  storedPhone,
  updatePhoneNumber,
  updateUser,
} from "./users.server";
export type { SemesterClasses, UserListQuery } from "./users.server";
export {
  AUDIT_EXPORT_LIMIT,
  AUDIT_PAGE_SIZE,
  OPENED_ACTION,
  SEARCHABLE_ACTIONS,
  allAuditEntries,
  auditQueryParams,
  isFiltered,
  isOpeningKind,
  readAuditQuery,
  searchAuditLog,
} from "./audit-log.server";
export type { AuditEntry, AuditQuery, PersonRole, SearchableAction } from "./audit-log.server";
export {
  ADMIN_COMMAND_USAGE,
  addAdministrator,
  adminCommand,
  listAdministrators,
  removeAdministrator,
} from "./administrators.server";
export type { Administrator, CommandResult } from "./administrators.server";
export { auditInWords, detailValue } from "./audit-words.server";
export type { DetailLine, EntryWords, Translate as AuditTranslate } from "./audit-words.server";
