import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

/** A node of pdf.js's structure tree: an element with a role, or a piece of marked content. */
interface StructNode {
  role?: string;
  type?: string;
  children?: StructNode[];
}

export interface ReadPdf {
  pages: number;
  /** Each page's text, its pieces joined by spaces. */
  pageTexts: string[];
  text: string;
  /** The pieces of text marked as artifacts (page header and footer, repeated table headers), per page. */
  artifactTexts: string[][];
  info: Record<string, unknown>;
  /** The viewer preferences: DisplayDocTitle makes a viewer show the title rather than the file name. */
  viewerPreferences: Record<string, unknown>;
  /** The bookmarks' titles, top level. */
  outline: string[];
  /** The structure tree as pdf.js gives it for the first page: the elements with content there, their ancestors, and whole tables and lists. */
  structure: StructNode;
  /** How often each role occurs in the whole structure tree. */
  roles: Map<string, number>;
  /** The fonts the pages draw text with: name and whether the file is embedded. */
  fonts: { name: string; embedded: boolean }[];
}

/**
 * The structure elements of the whole file, by role. pdf.js builds a tree per page, of the elements
 * with content on that page, so no one page's tree counts them all; pdfkit writes each element as
 * an uncompressed dictionary (`/S /TR` with its parent `/P`), which can be counted exactly.
 */
function countRoles(bytes: Uint8Array): Map<string, number> {
  const roles = new Map<string, number>();
  for (const match of Buffer.from(bytes)
    .toString("latin1")
    .matchAll(/<<\n\/S \/(\w+)\n(?:\/A <<[^>]*>>\n)?\/P \d+ 0 R\n/g)) {
    roles.set(match[1], (roles.get(match[1]) ?? 0) + 1);
  }
  return roles;
}

/** Reads a PDF back the way a viewer or screen reader would: text, structure, metadata, fonts. */
export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    fontExtraProperties: true,
  }).promise;
  const pageTexts: string[] = [];
  const artifactTexts: string[][] = [];
  const fonts = new Map<string, boolean>();
  let structure: StructNode = {};
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent({ includeMarkedContent: true });
    const words: string[] = [];
    const artifacts: string[] = [];
    let inArtifact = 0;
    for (const item of content.items) {
      if ("str" in item) {
        if (item.str.trim() === "") continue;
        (inArtifact > 0 ? artifacts : words).push(item.str);
      } else if (item.type === "beginMarkedContent" || item.type === "beginMarkedContentProps") {
        // pdf.js sends the marked content's tag, though its types leave it out.
        if (inArtifact > 0 || (item as { tag?: string }).tag === "Artifact") inArtifact++;
      } else if (item.type === "endMarkedContent" && inArtifact > 0) {
        inArtifact--;
      }
    }
    pageTexts.push(words.join(" "));
    artifactTexts.push(artifacts);
    // pdf.js gives each page the document's whole tree; the first page's is the document's.
    if (n === 1) structure = (await page.getStructTree()) ?? {};
    const operators = await page.getOperatorList();
    operators.fnArray.forEach((fn, i) => {
      if (fn !== OPS.setFont) return;
      const font = page.commonObjs.get(operators.argsArray[i][0] as string) as { name: string; missingFile: boolean };
      fonts.set(font.name, !font.missingFile);
    });
  }
  const { info } = await pdf.getMetadata();
  const viewerPreferences = ((await pdf.getViewerPreferences()) ?? {}) as Record<string, unknown>;
  const outline = ((await pdf.getOutline()) ?? []).map((item) => item.title);
  await pdf.destroy();
  return {
    pages: pageTexts.length,
    pageTexts,
    text: pageTexts.join("\n"),
    artifactTexts,
    info: info as Record<string, unknown>,
    viewerPreferences,
    outline,
    structure,
    roles: countRoles(bytes),
    fonts: [...fonts].map(([name, embedded]) => ({ name, embedded })),
  };
}

/** The roles of the structure tree in reading order, depth first (for checking the outline of a document). */
export function roleOutline(node: StructNode, depth = 0, out: string[] = []): string[] {
  if (node.role && node.role !== "Root") out.push(`${"  ".repeat(depth)}${node.role}`);
  for (const child of node.children ?? [])
    roleOutline(child, node.role && node.role !== "Root" ? depth + 1 : depth, out);
  return out;
}
