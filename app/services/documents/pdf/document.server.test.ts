import { expect, test } from "vitest";
import { readPdf, roleOutline } from "~/test/pdf";
import { PdfWriter, printable, type PdfSetup } from "./document.server";

const setup: PdfSetup = {
  title: "Prøvedokument for Åse Ødegård",
  subject: "Emne",
  author: "Fjordbyen høgskole",
  creator: "Praksis Fjordbyen",
  lang: "nb-NO",
  headerLeft: "Fjordbyen høgskole · Praksis Fjordbyen",
  headerRight: "Org.nr. 991 258 736",
  footerLeft: "Laget 22.11.2026 kl. 13:00",
  pageLabel: (page, pages) => `Side ${page} av ${pages}`,
  now: new Date("2026-11-22T12:00:00Z"),
};

test("a tagged document: language, title shown as the window title, metadata, and every text in the embedded DejaVu Sans", async () => {
  const w = new PdfWriter(setup);
  w.heading(1, "Overskrift med æøå ÆØÅ");
  // As a browser posts a textarea: Windows line ends, and a tab.
  w.paragraph("Første avsnitt.\r\nAndre linje i\tsamme avsnitt.");
  w.list(["Ett punkt", "To punkter"]);
  const pdf = await readPdf(await w.finish());

  expect(pdf.info).toMatchObject({
    Title: "Prøvedokument for Åse Ødegård",
    Author: "Fjordbyen høgskole",
    Subject: "Emne",
    Creator: "Praksis Fjordbyen",
    Language: "nb-NO",
    IsLinearized: false,
  });
  expect(pdf.viewerPreferences).toMatchObject({ DisplayDocTitle: true });
  expect(pdf.outline).toEqual(["Overskrift med æøå ÆØÅ"]);
  expect(pdf.text).toContain("Overskrift med æøå ÆØÅ");
  expect(pdf.text).toContain("Andre linje i samme avsnitt.");
  expect(pdf.fonts.length).toBeGreaterThan(0);
  for (const font of pdf.fonts) {
    // A subset of the embedded file (a six-letter tag before the name), never one of the standard 14.
    expect(font.name).toMatch(/^[A-Z]{6}\+DejaVuSans(-Bold)?$/);
    expect(font.embedded).toBe(true);
  }
  expect(roleOutline(pdf.structure)).toEqual([
    "Document",
    "  H1",
    "  P",
    "  L",
    "    LI",
    "      Lbl",
    "      LBody",
    "    LI",
    "      Lbl",
    "      LBody",
  ]);
});

test("the page header and footer are artifacts on every page, with the page count", async () => {
  const w = new PdfWriter(setup);
  w.heading(1, "Lang tekst");
  for (let i = 1; i <= 90; i++) w.paragraph(`Avsnitt nummer ${i}.`);
  const pdf = await readPdf(await w.finish());

  expect(pdf.pages).toBeGreaterThanOrEqual(2);
  pdf.artifactTexts.forEach((artifacts, i) => {
    expect(artifacts).toEqual([
      "Fjordbyen høgskole · Praksis Fjordbyen",
      "Org.nr. 991 258 736",
      "Laget 22.11.2026 kl. 13:00",
      `Side ${i + 1} av ${pdf.pages}`,
    ]);
  });
  // Not in the text a screen reader reads.
  expect(pdf.text).not.toContain("991 258 736");
  expect(pdf.text).toContain("Avsnitt nummer 90.");
});

test("a long table breaks between rows and repeats its header row on the next page, as an artifact", async () => {
  const w = new PdfWriter(setup);
  w.heading(1, "Tabell");
  const rows = Array.from({ length: 70 }, (_, i) => [
    `Spørsmål ${i + 1}`,
    i % 2 ? "Delvis selvstendig" : "Veiledet",
    "–",
  ]);
  w.table({
    columns: [
      { header: "Spørsmål", width: 2 },
      { header: "Student", width: 1 },
      { header: "Forventet nivå", width: 1 },
    ],
    rows,
    rowHeaders: true,
  });
  const pdf = await readPdf(await w.finish());

  expect(pdf.pages).toBeGreaterThanOrEqual(2);
  // The header row is structure once, on page 1; on later pages it is drawn again but marked as an artifact.
  expect(pdf.pageTexts[0]).toMatch(/^Tabell Spørsmål Student Forventet nivå Spørsmål 1 /);
  expect(pdf.pageTexts[1]).not.toContain("Forventet nivå");
  expect(pdf.artifactTexts[1]).toEqual(expect.arrayContaining(["Spørsmål", "Student", "Forventet nivå"]));
  // 71 rows in all (header + 70); a row is never split, so no row appears on two pages.
  const rowsOnPages = pdf.pageTexts.map((text) => (text.match(/Spørsmål \d+/g) ?? []).length);
  expect(rowsOnPages.reduce((a, b) => a + b, 0)).toBe(70);
  const table = pdf.structure.children?.[0].children?.find((c) => c.role === "Table");
  expect(table?.children?.[0].children?.map((c) => c.role)).toEqual(["TH", "TH", "TH"]);
  expect(table?.children?.[1].children?.map((c) => c.role)).toEqual(["TH", "TD", "TD"]);
  expect(pdf.roles.get("TR")).toBe(71);
});

test("typed text is made printable: line ends kept, tabs as spaces, other control characters dropped", () => {
  expect(printable("Linje én\r\nLinje to\rLinje tre\tslutt\u0007\u0000")).toBe("Linje én\nLinje to\nLinje tre slutt");
});
