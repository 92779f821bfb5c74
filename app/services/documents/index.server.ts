// The documents domain's public surface for server code: loaders, actions and other domains' services.
export {
  answersDocument,
  documentFileName,
  emptyFormDocument,
  fullRecordDocument,
  signingFormDocument,
  warningDocument,
} from "./pdf/documents.server";
export { documentSettings, pdfResponse, requireViewer, studentDocument } from "./pdf/download.server";
export { fullRecord, givenWarning, mayReadForm, signingFormRecord } from "./pdf/records.server";
export { formToRead } from "./form-view.server";
export type { ClassUsingForm, FormToRead } from "./form-view.server";
export { REPORT_PAGE_SIZE, openSemesterReport, recordReportOpenings, reportStudentIds } from "./semester-report.server";
export type { SemesterReport, Translate } from "./semester-report.server";
export { AUDIT_CSV_COLUMNS, auditCells, openAuditCsv, osloTimestamp } from "./audit-csv.server";
export { MY_DATA_FORMAT, MY_DATA_VERSION, openMyDataExport } from "./my-data.server";
