/**
 * CSV as Norwegian Excel opens it (docs/rules/documents.md): semicolon-separated, UTF-8 with a byte-order
 * mark, CRLF line ends. Cells a spreadsheet would run as a formula are neutralised.
 */

export const CSV_DELIMITER = ";";
export const CSV_LINE_END = "\r\n";
/** Without it Excel reads the file as Windows-1252 and æøå come out garbled. */
export const CSV_BOM = "\uFEFF";

export type CsvValue = string | number | null | undefined;

/**
 * A spreadsheet treats a cell starting with one of these as a formula (or, for tab and carriage
 * return, may strip them and then see one); OWASP's "CSV injection" advice.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: formula starts prefixed with `'`, quoted when it holds a delimiter, quote or line break. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  if (/[";\r\n]/.test(text)) text = `"${text.replace(/"/g, '""')}"`;
  return text;
}

/** One line of cells, with its line end. */
export function csvRow(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(CSV_DELIMITER) + CSV_LINE_END;
}

/** RFC 5987 attr-char: what may stand unencoded in `filename*=UTF-8''…`. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const ASCII_FOR: Record<string, string> = { æ: "ae", ø: "o", å: "a", Æ: "Ae", Ø: "O", Å: "A" };

/** An ASCII stand-in for browsers that ignore `filename*`: Norwegian letters spelt out, the rest dropped to `_`. */
export function asciiFileName(name: string): string {
  return name
    .replace(/[æøåÆØÅ]/g, (c) => ASCII_FOR[c])
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]|["\\/;%]/g, "_");
}

/**
 * `Content-Disposition` for a server-chosen file name: an ASCII `filename` and the real name in
 * `filename*` (RFC 6266 / 5987), so "Høst" survives in every current browser. `inline` lets the
 * browser show the file (a PDF) and still offers the name when it is saved.
 */
export function contentDisposition(
  type: "inline" | "attachment",
  fileName: string,
  ascii = asciiFileName(fileName),
): string {
  // The fallback passes the same filter whoever made it, so no quote, backslash or line break reaches the header.
  return `${type}; filename="${asciiFileName(ascii)}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}

export function attachmentDisposition(fileName: string): string {
  return contentDisposition("attachment", fileName);
}
