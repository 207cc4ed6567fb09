/**
 * Control characters (C0, DEL, C1) and the bidirectional controls (ALM, LRM, RLM, the
 * embeddings, overrides and isolates): in a name or merchant descriptor they can rewrite a terminal line
 * or make "gro.knab" read as "bank.org" (Trojan Source, CVE-2021-42574).
 */
const UNPRINTABLE = /[\p{Cc}\p{Bidi_Control}]/gu;

/** `text` with every control and bidirectional-control character replaced by a space, runs collapsed. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, " ").replace(/ {2,}/g, " ").trim();
}
