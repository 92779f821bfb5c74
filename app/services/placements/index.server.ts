// The placements domain's public surface for server code: loaders, actions and other domains' services.
export {
  halfProgress,
  progressPage,
  PROGRESS_PAGE_SIZE,
  readSort,
  signingColumns,
  signingSummary,
  warningSummary,
} from "./class-progress.server";
export type {
  AuthorCounts,
  HalfProgress,
  ProgressPage,
  ProgressRow,
  SigningSummary,
  SortDirection,
  SortKey,
} from "./class-progress.server";
export {
  STUDENT_PICKER_PAGE_SIZE,
  STUDENT_SEARCH_MAX_LENGTH,
  addSupervisor,
  studentPicker,
  takeStudentsAsTeacher,
  welcomeMail,
} from "./class-staffing.server";
export {
  INVITATION_TTL_MS,
  acceptInvitation,
  createInvitation,
  invitationStatus,
  lookUpInvitation,
} from "./invitations.server";
export { adminOverview, classesOfStudent, classesOfTeacher, splitByCurrent } from "./overview.server";
export { requireClassAccess, requireClassTeacher, requireStudentAccess } from "./permissions.server";
export type { StudentAccess, StudentRelation, Viewer } from "./permissions.server";
export { placementOf } from "./placement.server";
export type { FormProgress, Placement } from "./placement.server";
export {
  classesWithSigningForm,
  currentReferenceOf,
  documentPaths,
  formsByHalf,
  hasSupervisor,
  joinClass,
  requireCurrentReference,
  studentFormPath,
  studentResultsPath,
} from "./student-placement.server";
export type { CurrentReference } from "./student-placement.server";
export {
  addExtraSupervisor,
  classesOfSupervisor,
  displayNameOf,
  placementForView,
  removeExtraSupervisor,
  setAssignedSupervisor,
  supervisorClassPage,
  supervisorsOfClass,
  takeStudents,
} from "./supervision.server";
export type { PlacementView } from "./supervision.server";
export { chosenSupervisor, supervisorChoices } from "./supervisor-choices";
export type { SupervisorOption } from "./supervisor-choices";
export {
  joinClassAsTeacher,
  leaveClass,
  otherClassesThisSemester,
  studentsLosingTeacher,
  teacherClassPage,
} from "./teacher-class.server";
export { TODO_FORMS_SHOWN, staffTodo, staffTodoView, studentTodo } from "./todo.server";
export type { StaffTodo, StaffTodoView, StudentTodo, TodoForm, TodoStudent } from "./todo.server";
