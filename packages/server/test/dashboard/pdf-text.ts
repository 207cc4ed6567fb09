import { inflateSync } from "node:zlib";

/**
 * The text a PDF shows, for PDFs whose pages set text as hex strings (`<...> Tj`), as pdf-lib writes them
 * with the standard fonts: each content stream is inflated when it is Flate-encoded, then its strings
 * decoded (WinAnsi, read as Latin-1). One string per line drawn.
 */
export function pdfText(pdf: Uint8Array): string[] {
  const raw = Buffer.from(pdf).toString("latin1");
  const lines: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const bytes = Buffer.from(match[1] ?? "", "latin1");
    let content: string;
    try {
      content = inflateSync(bytes).toString("latin1");
    } catch {
      content = bytes.toString("latin1");
    }
    for (const text of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      lines.push(Buffer.from(text[1] ?? "", "hex").toString("latin1"));
    }
  }
  return lines;
}
