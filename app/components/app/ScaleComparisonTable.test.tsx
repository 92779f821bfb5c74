import { Window } from "happy-dom";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ScaleComparisonTable } from "./ScaleComparisonTable";

const aspects = [
  {
    key: "observations",
    name: "Observasjoner",
    statements: ["Ser alt selv.", "Ser det meste selv."] as [string, string],
  },
  { key: "accuracy", name: "Nøyaktighet", statements: ["Alltid nøyaktig.", "Oftest nøyaktig."] as [string, string] },
  { key: "safety", name: "Sikkerhet", statements: ["Alltid trygg.", "Oftest trygg."] as [string, string] },
];

function renderTable(): HTMLTableElement {
  const html = renderToString(
    <ScaleComparisonTable
      caption="Selvstendig sammenlignet med Delvis selvstendig"
      aspectHeader="Område"
      levels={["Selvstendig", "Delvis selvstendig"]}
      aspects={aspects}
    />,
  );
  const document = new Window().document;
  document.body.innerHTML = html;
  return document.querySelector("table") as unknown as HTMLTableElement;
}

/** The column a cell starts in, counting the colspans of the cells before it in its row. */
function columnOf(cell: HTMLTableCellElement): number {
  let column = 0;
  for (
    let before = cell.previousElementSibling as HTMLTableCellElement | null;
    before;
    before = before.previousElementSibling as HTMLTableCellElement | null
  ) {
    column += before.colSpan || 1;
  }
  return column;
}

describe("the independence scale's comparison table (WCAG technique H43)", () => {
  it("names in each statement's headers exactly its own column's header and its own row's header", () => {
    const table = renderTable();
    const columnHeaders = Array.from(table.querySelectorAll("thead th"));
    const cells = Array.from(table.querySelectorAll("td"));
    expect(cells).toHaveLength(aspects.length * 2);
    for (const cell of cells) {
      const column = columnOf(cell);
      const ownColumn = columnHeaders.filter((th) => columnOf(th as HTMLTableCellElement) === column);
      const ownRow = Array.from(cell.parentElement!.children).filter((el) => el.tagName === "TH");
      expect(ownColumn, `"${cell.textContent}" has one column header`).toHaveLength(1);
      expect(ownRow, `"${cell.textContent}" has one row header, in its own row`).toHaveLength(1);
      const named = (cell.getAttribute("headers") ?? "").split(/\s+/).filter(Boolean).sort();
      expect(named, `the headers of "${cell.textContent}"`).toEqual([ownColumn[0].id, ownRow[0].id].sort());
      expect(ownRow[0].textContent, `"${cell.textContent}"'s row header`).toBe(
        aspects.find((a) => a.statements.includes(cell.textContent!))!.name,
      );
    }
  });

  it("gives every header cell an id, each once, and a scope", () => {
    const table = renderTable();
    const ids = Array.from(table.querySelectorAll("th"), (th) => th.id);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const th of Array.from(table.querySelectorAll("th")))
      expect(["col", "row"]).toContain(th.getAttribute("scope"));
  });
});
