import { describe, expect, test } from "vitest";
import { asciiFileName, attachmentDisposition, contentDisposition, CSV_BOM, csvCell, csvRow } from "./csv";

describe("csvCell", () => {
  test("leaves plain text as it is, æøå included", () => {
    expect(csvCell("Ida Ødegård")).toBe("Ida Ødegård");
    expect(csvCell("Praksis i spesialisthelsetjenesten, Ålesund")).toBe("Praksis i spesialisthelsetjenesten, Ålesund");
    expect(csvCell("ÆØÅ æøå")).toBe("ÆØÅ æøå");
  });

  test("writes nothing for a missing value and numbers as digits", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("")).toBe("");
    expect(csvCell(12)).toBe("12");
  });

  test("quotes a cell holding the delimiter, a quote or a line break, doubling inner quotes", () => {
    expect(csvCell("Sykehjem; avdeling 2")).toBe('"Sykehjem; avdeling 2"');
    expect(csvCell('Han sa "hei"')).toBe('"Han sa ""hei"""');
    expect(csvCell("linje 1\nlinje 2")).toBe('"linje 1\nlinje 2"');
    expect(csvCell("linje 1\r\nlinje 2")).toBe('"linje 1\r\nlinje 2"');
  });

  test.each([
    ['=HYPERLINK("http://evil.example")', '\'=HYPERLINK("http://evil.example")'],
    ["+4741234567", "'+4741234567"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["\t=1+1", "'\t=1+1"],
  ])("neutralises a formula start: %j", (value, neutralised) => {
    expect(csvCell(value).replace(/^"|"$/g, "")).toBe(neutralised.replace(/"/g, '""'));
    expect(csvCell(value)).not.toMatch(/^[=+\-@\t]/);
  });

  test("neutralises a formula that also needs quoting, prefix inside the quotes", () => {
    expect(csvCell("=1;2")).toBe(`"'=1;2"`);
    expect(csvCell("\rX")).toBe(`"'\rX"`);
  });

  test("leaves the formula characters alone when they are not first", () => {
    expect(csvCell("Student 1 = flink")).toBe("Student 1 = flink");
    expect(csvCell("a-b@c.no")).toBe("a-b@c.no");
  });
});

describe("csvRow", () => {
  test("joins with semicolons and ends with CRLF", () => {
    expect(csvRow(["Emma Andersen", "student01@example.org", "SYK2001", null, "Ja"])).toBe(
      "Emma Andersen;student01@example.org;SYK2001;;Ja\r\n",
    );
  });

  test("a cell with an embedded line break stays one record", () => {
    expect(csvRow(["a\nb", "c"])).toBe('"a\nb";c\r\n');
  });

  test("the byte-order mark is U+FEFF, three bytes in UTF-8", () => {
    expect([...new TextEncoder().encode(CSV_BOM)]).toEqual([0xef, 0xbb, 0xbf]);
  });
});

describe("file names", () => {
  test("the ASCII fallback spells out æøå and drops what a header cannot carry", () => {
    expect(asciiFileName("Semesterrapport Høst 2026.csv")).toBe("Semesterrapport Host 2026.csv");
    expect(asciiFileName("Vår Ærlig Å.csv")).toBe("Var Aerlig A.csv");
    expect(asciiFileName('Rapport "x"; y\\z.csv')).toBe("Rapport _x__ y_z.csv");
    expect(asciiFileName("Émile 日本.csv")).toBe("Emile __.csv");
  });

  test("Content-Disposition has an ASCII filename and the real name in RFC 5987 form", () => {
    expect(attachmentDisposition("Semesterrapport Høst 2026.csv")).toBe(
      `attachment; filename="Semesterrapport Host 2026.csv"; filename*=UTF-8''Semesterrapport%20H%C3%B8st%202026.csv`,
    );
    expect(attachmentDisposition("Rapport (vår)'*.csv")).toBe(
      `attachment; filename="Rapport (var)'*.csv"; filename*=UTF-8''Rapport%20%28v%C3%A5r%29%27%2A.csv`,
    );
  });

  test("a hostile name (quotes, CR/LF, semicolons, æøå) cannot break out of the header, whoever made the fallback", () => {
    const hostile = 'Høst "x"\r\nSet-Cookie: a=b; filename=evil.exe\n.csv';
    for (const header of [
      attachmentDisposition(hostile),
      contentDisposition("inline", hostile, hostile),
      contentDisposition("attachment", "ok.pdf", 'a"b\r\nX-Injected: 1'),
    ]) {
      expect(header).not.toMatch(/[\r\n]/);
      // One quoted filename, then filename*: no quote inside the quoted value, no unencoded ";" in filename*.
      expect(header).toMatch(/^(inline|attachment); filename="[^"\\]*"; filename\*=UTF-8''[A-Za-z0-9%!#$&+.^_`|~-]*$/);
      expect(() => new Headers({ "Content-Disposition": header })).not.toThrow();
    }
    const encoded = /filename\*=UTF-8''(.+)$/.exec(attachmentDisposition(hostile))![1];
    expect(decodeURIComponent(encoded)).toBe(hostile);
  });

  test("the encoded name decodes back to the original", () => {
    const header = attachmentDisposition("Semester report Vår 2027.csv");
    const encoded = /filename\*=UTF-8''(.+)$/.exec(header)![1];
    expect(decodeURIComponent(encoded)).toBe("Semester report Vår 2027.csv");
  });
});
