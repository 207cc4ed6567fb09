import { PDFDocument, StandardFonts } from "pdf-lib";
import { renderStatement } from "../../sdk/src/statements/render.js";
import type { Statement } from "../../sdk/src/statements/statement.js";

const PAGE: [number, number] = [792, 612]; // US Letter, landscape: the statement table is wide.
const MARGIN = 36;
const SIZE = 8;
const LEADING = 10.5;

/** WinAnsi is what the standard PDF fonts can show: anything else is printed as `?`. */
function winAnsi(line: string): string {
  return line.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");
}

/**
 * The statement as a PDF: the SDK's plain-text rendering (a fixed-width table) set in Courier, so the
 * PDF says exactly what the text and HTML statements say. Built in the browser; nothing leaves the page.
 */
export async function statementPdf(statement: Statement, issuer?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Account statement ${statement.account.maskedNumber} ${statement.period.month}`);
  doc.setProducer("paysvc sandbox dashboard");
  doc.setCreationDate(new Date(statement.generatedAt));
  doc.setModificationDate(new Date(statement.generatedAt));
  const font = await doc.embedFont(StandardFonts.Courier);
  const perLine = Math.floor((PAGE[0] - 2 * MARGIN) / font.widthOfTextAtSize("M", SIZE));
  const text = renderStatement(statement, "text", issuer ? { issuer } : {});
  const lines = text.split("\n").flatMap((line) => {
    const chunks: string[] = [];
    for (let i = 0; i < line.length; i += perLine) chunks.push(line.slice(i, i + perLine));
    return chunks.length > 0 ? chunks : [""];
  });
  let page = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  for (const line of lines) {
    if (y < MARGIN) {
      page = doc.addPage(PAGE);
      y = PAGE[1] - MARGIN;
    }
    if (line) page.drawText(winAnsi(line), { x: MARGIN, y, size: SIZE, font });
    y -= LEADING;
  }
  return doc.save();
}
