import { allAuditEntries, type AuditEntry, type AuditQuery } from "~/services/admin/index.server";
import type { Db } from "~/services/platform/db/client.server";
import { osloDate } from "~/services/platform/semesters";
import { CSV_BOM, csvRow, type CsvValue } from "./csv";
import type { Translate } from "./semester-report.server";

/**
 * The admin's audit search as CSV (docs/rules/documents.md), in the house format (csv.ts: semicolons, BOM,
 * neutralised cells: a name or a detail that starts with "=" stays text). Written a page of the
 * search at a time as the browser reads it.
 */

export const AUDIT_CSV_COLUMNS = [
  "at",
  "action",
  "actorName",
  "actorEmail",
  "subjectName",
  "subjectEmail",
  "classId",
  "details",
  "ip",
] as const;

const clock = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Oslo",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** An instant as Norwegian local time, as a spreadsheet reads it: 2026-11-25 14:03:07. */
export function osloTimestamp(at: Date): string {
  return `${osloDate(at)} ${clock.format(at)}`;
}

export function auditCells(entry: AuditEntry): CsvValue[] {
  return [
    osloTimestamp(entry.at),
    entry.action,
    entry.actorName,
    entry.actorEmail,
    entry.subjectName,
    entry.subjectEmail,
    entry.classId,
    entry.details ? JSON.stringify(entry.details) : null,
    entry.ip,
  ];
}

export function auditCsvFileName(now: Date): string {
  return `praksis-audit-${osloDate(now)}.csv`;
}

export interface AuditCsv {
  fileName: string;
  stream: ReadableStream<Uint8Array>;
}

export function openAuditCsv(
  db: Db,
  query: AuditQuery,
  options: { t: Translate<"privacyData">; now?: Date },
): AuditCsv {
  const encoder = new TextEncoder();
  const pages = allAuditEntries(db, query);
  let started = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(
            encoder.encode(
              CSV_BOM + csvRow(AUDIT_CSV_COLUMNS.map((column) => options.t(`audit.csvColumns.${column}`))),
            ),
          );
          return;
        }
        const next = await pages.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.map((entry) => csvRow(auditCells(entry))).join("")));
      },
      async cancel() {
        await pages.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { fileName: auditCsvFileName(options.now ?? new Date()), stream };
}
