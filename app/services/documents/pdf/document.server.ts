import fs from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";

/**
 * A small tagged-PDF writer on pdfkit (ADR 0010): every piece of text sits in a
 * structure element (Document → H1–H4, P, L/LI, Table/TR/TH/TD), everything drawn only for the look
 * (rules, cell borders, page header and footer, a table header repeated on a new page) is marked as
 * an artifact, and all text is set in the embedded DejaVu Sans, which has æøå and is never swapped
 * for a font the reader's machine may lack. The documents (documents.server.ts) only say what to
 * write, in reading order; this file decides how it looks on A4.
 */

export interface PdfSetup {
  /** Shown as the window title (displayTitle) and read first by a screen reader. */
  title: string;
  subject: string;
  author: string;
  /** The BCP 47 tag of the document's language: "nb-NO" or "en". */
  lang: string;
  /** The page header's left part: the institution and the app's name. */
  headerLeft: string;
  /** The page header's right part: the organisation number. */
  headerRight: string;
  /** The page footer's left part (when the document was made). */
  footerLeft: string;
  /** The page footer's right part, "Side 2 av 5". */
  pageLabel: (page: number, pages: number) => string;
  /** The Creator entry: the app's name. */
  creator: string;
  /** When the document was made (the info dictionary's dates); now by default. */
  now?: Date;
  /** Landscape gives an empty form's six answer boxes room beside the question. */
  layout?: "portrait" | "landscape";
}

export interface PdfColumn {
  header: string;
  /** Share of the table's width, relative to the other columns. */
  width: number;
}

export interface PdfTable {
  columns: PdfColumn[];
  /** Body rows; each has one text per column. */
  rows: string[][];
  /** The first cell of each body row names the row (TH scope Row) rather than holding data. */
  rowHeaders?: boolean;
}

const FONT_DIR = path.join(process.cwd(), "resources", "fonts");
let fontFiles: { regular: Buffer; bold: Buffer } | undefined;

/** Read once per process: every document embeds a subset of the same two files. */
function fonts() {
  fontFiles ??= {
    regular: fs.readFileSync(path.join(FONT_DIR, "DejaVuSans.ttf")),
    bold: fs.readFileSync(path.join(FONT_DIR, "DejaVuSans-Bold.ttf")),
  };
  return fontFiles;
}

const REGULAR = "DejaVuSans";
const BOLD = "DejaVuSans-Bold";

const PAGE = { size: "A4", top: 78, bottom: 66, left: 56, right: 56 } as const;
const COLOUR = { text: "#1b1b1b", muted: "#4d4d4d", rule: "#8c8c8c", headerFill: "#e9eef4", zebra: "#f6f6f6" } as const;
const SIZE = { body: 10.5, small: 9, table: 8.5, frame: 8, h1: 19, h2: 15, h3: 12.5, h4: 11 } as const;
const LINE_GAP = 2.5;
const CELL_PAD = { x: 5, y: 4 } as const;

/**
 * Text as typed in a browser: Windows line ends, tabs and other control characters have no glyph
 * in the font and would print as boxes; a line end is kept as a line end.
 */
export function printable(text: string): string {
  return (
    text
      .replace(/\r\n?/g, "\n")
      .replace(/\t/g, " ")
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "")
  );
}

type HeadingLevel = 1 | 2 | 3 | 4;
/** pdfkit writes a table cell's scope (0.19+); its types do not list it yet. */
type CellOptions = PDFKit.Mixins.StructureElementOptions & { scope?: "Row" | "Column" };
type Struct = PDFKit.PDFStructureElement;

export class PdfWriter {
  private readonly doc: PDFKit.PDFDocument;
  private readonly root: Struct;
  /** Where new elements go: the document, or a section or list opened around them. */
  private readonly containers: Struct[];
  private readonly done: Promise<Buffer<ArrayBuffer>>;

  constructor(private readonly setup: PdfSetup) {
    const now = setup.now ?? new Date();
    const options: PDFKit.PDFDocumentOptions = {
      pdfVersion: "1.7",
      size: PAGE.size,
      layout: setup.layout ?? "portrait",
      margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
      tagged: true,
      lang: setup.lang,
      displayTitle: true,
      // The page header and footer say "page N of M", known only at the end.
      bufferPages: true,
      info: {
        Title: setup.title,
        Subject: setup.subject,
        Author: setup.author,
        Creator: setup.creator,
        CreationDate: now,
        ModDate: now,
      },
    };
    // pdfkit would open Helvetica as its default; a standard font is not embedded, so none may be used.
    this.doc = new PDFDocument({ ...options, font: null as unknown as string });
    const chunks: Buffer[] = [];
    this.done = new Promise((resolve, reject) => {
      this.doc.on("data", (chunk: Buffer) => chunks.push(chunk));
      this.doc.on("end", () => resolve(Buffer.concat(chunks)));
      this.doc.on("error", reject);
    });
    const { regular, bold } = fonts();
    this.doc.registerFont(REGULAR, regular);
    this.doc.registerFont(BOLD, bold);
    this.doc.font(REGULAR).fontSize(SIZE.body).fillColor(COLOUR.text);
    this.root = this.doc.struct("Document");
    this.doc.addStructure(this.root);
    this.containers = [this.root];
  }

  private get width(): number {
    return this.doc.page.width - PAGE.left - PAGE.right;
  }

  private get bottom(): number {
    return this.doc.page.height - PAGE.bottom;
  }

  private get container(): Struct {
    return this.containers[this.containers.length - 1];
  }

  /** Starts a new page when less than `height` is left, so what belongs together (a heading and what follows) is not parted. */
  keepSpace(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  /** Marks what is drawn in `draw` as decoration, outside the structure tree. */
  private artifact(draw: () => void, type: "Layout" | "Pagination" = "Layout"): void {
    this.doc.markContent("Artifact", { type });
    draw();
    this.doc.endMarkedContent();
  }

  private element(type: string, draw: () => void, parent: Struct = this.container): void {
    parent.add(this.doc.struct(type, {}, draw));
  }

  private textHeight(text: string, font: string, size: number, width: number): number {
    return this.doc.font(font).fontSize(size).heightOfString(text, { width, lineGap: LINE_GAP });
  }

  heading(level: HeadingLevel, heading: string): this {
    const text = printable(heading);
    const size = SIZE[`h${level}`];
    const above = level === 1 ? 0 : level === 2 ? 14 : 9;
    const below = level <= 2 ? 6 : 4;
    // The heading and the start of what follows: a few lines, or a table's header and first row.
    this.keepSpace(above + this.textHeight(text, BOLD, size, this.width) + below + 90);
    if (this.doc.y > PAGE.top) this.doc.y += above;
    if (level <= 2) this.doc.outline.addItem(text);
    this.element(`H${level}`, () => {
      this.doc
        .font(BOLD)
        .fontSize(size)
        .fillColor(COLOUR.text)
        .text(text, PAGE.left, this.doc.y, { width: this.width, lineGap: LINE_GAP });
    });
    this.doc.y += below;
    return this;
  }

  /** A paragraph; line breaks in the text are kept (answers and comments are typed with them). */
  paragraph(content: string, style: { bold?: boolean; muted?: boolean; small?: boolean } = {}): this {
    const text = printable(content);
    const size = style.small ? SIZE.small : SIZE.body;
    const font = style.bold ? BOLD : REGULAR;
    this.keepSpace(2 * (size + LINE_GAP));
    this.element("P", () => {
      this.doc
        .font(font)
        .fontSize(size)
        .fillColor(style.muted ? COLOUR.muted : COLOUR.text)
        .text(text, PAGE.left, this.doc.y, { width: this.width, lineGap: LINE_GAP, paragraphGap: 2 });
    });
    this.doc.fillColor(COLOUR.text);
    this.doc.y += 4;
    return this;
  }

  /** A bulleted list (L → LI → Lbl + LBody). */
  list(items: readonly string[]): this {
    const list = this.doc.struct("L");
    this.container.add(list);
    const indent = 14;
    for (const item of items.map(printable)) {
      this.keepSpace(2 * (SIZE.body + LINE_GAP));
      const entry = this.doc.struct("LI");
      list.add(entry);
      const y = this.doc.y;
      this.element(
        "Lbl",
        () =>
          this.doc
            .font(REGULAR)
            .fontSize(SIZE.body)
            .text("•", PAGE.left + 3, y, { lineBreak: false }),
        entry,
      );
      this.element(
        "LBody",
        () => this.doc.text(item, PAGE.left + indent, y, { width: this.width - indent, lineGap: LINE_GAP }),
        entry,
      );
      entry.end();
      this.doc.y += 2;
    }
    list.end();
    this.doc.x = PAGE.left;
    this.doc.y += 4;
    return this;
  }

  /** Room to write by hand (a ruled box, decoration only). */
  writingSpace(height: number): this {
    this.keepSpace(height + 8);
    const y = this.doc.y;
    this.artifact(() =>
      this.doc.lineWidth(0.5).strokeColor(COLOUR.rule).rect(PAGE.left, y, this.width, height).stroke(),
    );
    this.doc.y = y + height + 10;
    return this;
  }

  /** Everything written in `content` forms one section (Sect) of the structure tree. */
  section(content: () => void): this {
    const section = this.doc.struct("Sect");
    this.container.add(section);
    this.containers.push(section);
    try {
      content();
    } finally {
      this.containers.pop();
      section.end();
    }
    return this;
  }

  /**
   * A table whose rows never split; when a row does not fit, it goes on the next page under a copy
   * of the header row (an artifact there: a screen reader has read it once already).
   */
  table(content: PdfTable): this {
    const table: PdfTable = {
      ...content,
      columns: content.columns.map((c) => ({ ...c, header: printable(c.header) })),
      rows: content.rows.map((row) => row.map(printable)),
    };
    const widths = this.columnWidths(table);
    const xs = widths.map((_, i) => PAGE.left + widths.slice(0, i).reduce((a, b) => a + b, 0));
    const cellHeight = (text: string, i: number, font: string) =>
      this.textHeight(text || " ", font, SIZE.table, widths[i] - 2 * CELL_PAD.x) + 2 * CELL_PAD.y;
    const rowHeight = (cells: readonly string[], fontOf: (i: number) => string) =>
      Math.max(...cells.map((text, i) => cellHeight(text, i, fontOf(i))));
    const headers = table.columns.map((c) => c.header);
    const headerHeight = rowHeight(headers, () => BOLD);
    const bodyFont = (i: number) => (table.rowHeaders && i === 0 ? BOLD : REGULAR);

    const structure = this.doc.struct("Table");
    this.container.add(structure);

    const drawRowBackground = (y: number, height: number, fill: string | null) =>
      this.artifact(() => {
        if (fill) this.doc.rect(PAGE.left, y, this.width, height).fill(fill);
        this.doc.lineWidth(0.5).strokeColor(COLOUR.rule);
        this.doc
          .moveTo(PAGE.left, y + height)
          .lineTo(PAGE.left + this.width, y + height)
          .stroke();
      });
    const writeCell = (text: string, i: number, y: number, font: string) =>
      this.doc
        .font(font)
        .fontSize(SIZE.table)
        .fillColor(COLOUR.text)
        .text(text, xs[i] + CELL_PAD.x, y + CELL_PAD.y, { width: widths[i] - 2 * CELL_PAD.x, lineGap: LINE_GAP });

    const columnHeader: CellOptions = { scope: "Column" };
    const headerRow = (tagged: boolean) => {
      const y = this.doc.y;
      drawRowBackground(y, headerHeight, COLOUR.headerFill);
      if (tagged) {
        const row = this.doc.struct("TR");
        structure.add(row);
        headers.forEach((text, i) => row.add(this.doc.struct("TH", columnHeader, () => writeCell(text, i, y, BOLD))));
        row.end();
      } else {
        this.artifact(() => headers.forEach((text, i) => writeCell(text, i, y, BOLD)), "Pagination");
      }
      this.doc.y = y + headerHeight;
    };

    this.keepSpace(headerHeight + (table.rows[0] ? rowHeight(table.rows[0], bodyFont) : 0));
    headerRow(true);
    table.rows.forEach((cells, r) => {
      const height = rowHeight(cells, bodyFont);
      if (this.doc.y + height > this.bottom) {
        this.doc.addPage();
        headerRow(false);
      }
      const y = this.doc.y;
      drawRowBackground(y, height, r % 2 === 1 ? COLOUR.zebra : null);
      const row = this.doc.struct("TR");
      structure.add(row);
      cells.forEach((text, i) => {
        const header = table.rowHeaders && i === 0;
        const options: CellOptions = header ? { scope: "Row" } : {};
        row.add(this.doc.struct(header ? "TH" : "TD", options, () => writeCell(text, i, y, bodyFont(i))));
      });
      row.end();
      this.doc.y = y + height;
    });
    structure.end();
    this.doc.x = PAGE.left;
    this.doc.y += 10;
    this.doc.font(REGULAR).fontSize(SIZE.body);
    return this;
  }

  /**
   * Each column's share of the width, but never narrower than its longest word (a label like
   * "Praksisveileder" is not broken mid-word): the room comes from the columns that have more than
   * they need, as long as there is any; past that, words break.
   */
  private columnWidths(table: PdfTable): number[] {
    const total = table.columns.reduce((sum, c) => sum + c.width, 0);
    const shares = table.columns.map((c) => (c.width / total) * this.width);
    const longestWord = (text: string, font: string) =>
      Math.max(0, ...text.split(/\s+/).map((word) => this.doc.font(font).fontSize(SIZE.table).widthOfString(word)));
    const minimum = table.columns.map(
      (c, i) =>
        Math.max(
          longestWord(c.header, BOLD),
          ...table.rows.map((row) => longestWord(row[i] ?? "", table.rowHeaders && i === 0 ? BOLD : REGULAR)),
        ) +
        2 * CELL_PAD.x +
        // A line that fills its width exactly makes pdfkit's wrapper add an empty line.
        6,
    );
    const widths = shares.map((share, i) => Math.max(share, minimum[i]));
    const excess = widths.reduce((a, b) => a + b, 0) - this.width;
    const slack = widths.map((w, i) => Math.max(0, w - minimum[i]));
    const slackTotal = slack.reduce((a, b) => a + b, 0);
    if (excess <= 0) return widths;
    if (slackTotal < excess) return shares;
    return widths.map((w, i) => w - (excess * slack[i]) / slackTotal);
  }

  /** A two-column table of labelled facts (the label is the row's header). */
  facts(rows: readonly (readonly [string, string])[], headers: [string, string]): this {
    return this.table({
      columns: [
        { header: headers[0], width: 1 },
        { header: headers[1], width: 2.2 },
      ],
      rows: rows.map(([label, value]) => [label, value]),
      rowHeaders: true,
    });
  }

  /** Writes the page header and footer on every page, closes the structure and returns the file. */
  async finish(): Promise<Buffer<ArrayBuffer>> {
    const { start, count } = this.doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      this.doc.switchToPage(i);
      this.artifact(() => this.frame(i - start + 1, count), "Pagination");
    }
    this.root.end();
    this.doc.end();
    return this.done;
  }

  private frame(page: number, pages: number): void {
    const doc = this.doc;
    // The footer sits below the bottom margin, where text would otherwise start a new page.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font(REGULAR).fontSize(SIZE.frame).fillColor(COLOUR.muted);
    const headerY = PAGE.top - 34;
    doc.text(this.setup.headerLeft, PAGE.left, headerY, { width: this.width * 0.7, lineBreak: false });
    doc.text(this.setup.headerRight, PAGE.left + this.width * 0.5, headerY, {
      width: this.width * 0.5,
      align: "right",
      lineBreak: false,
    });
    doc
      .lineWidth(0.5)
      .strokeColor(COLOUR.rule)
      .moveTo(PAGE.left, headerY + 14)
      .lineTo(PAGE.left + this.width, headerY + 14)
      .stroke();
    const footerY = doc.page.height - PAGE.bottom + 24;
    doc
      .moveTo(PAGE.left, footerY - 8)
      .lineTo(PAGE.left + this.width, footerY - 8)
      .stroke();
    doc.text(this.setup.footerLeft, PAGE.left, footerY, { width: this.width * 0.7, lineBreak: false });
    doc.text(this.setup.pageLabel(page, pages), PAGE.left + this.width * 0.5, footerY, {
      width: this.width * 0.5,
      align: "right",
      lineBreak: false,
    });
    doc.page.margins.bottom = margin;
    doc.fillColor(COLOUR.text);
  }
}
