import { escapeHtml, hostedPageHeaders, htmlDocument } from "../core/http/html-page.js";
import type { RevealedCard } from "./reveal.js";

/**
 * Headers of the reveal page and its 410: embeddable only by the platform's configured origins (CSP
 * frame-ancestors; the 410 names no platform, so nobody), never cached or stored by a browser or proxy,
 * no Referer leaking the token, and no scripts or outside resources at all.
 */
export function revealPageHeaders(frameAncestors = "'none'"): Record<string, string> {
  return {
    ...hostedPageHeaders,
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors ${frameAncestors}`,
  };
}

const style = `
  body { margin: 0; font: 16px/1.4 system-ui, sans-serif; color: #111; background: transparent; }
  .card { max-width: 22rem; padding: 1.25rem; border-radius: 0.75rem; background: #1f2937; color: #f9fafb; }
  .label { font-size: 0.7rem; text-transform: uppercase; letter-spacing: 0.08em; opacity: 0.7; }
  .pan { font: 1.35rem/1.6 ui-monospace, monospace; letter-spacing: 0.08em; }
  .row { display: flex; gap: 2rem; margin-top: 0.75rem; }
  .value { font-family: ui-monospace, monospace; }
`;

function page(title: string, body: string): string {
  return htmlDocument(title, style, body);
}

/** The page with the card's full number (in groups of four), expiry MM/YY and CVV. */
export function renderRevealPage(card: RevealedCard): string {
  const pan = card.pan.replace(/(\d{4})(?=\d)/g, "$1 ");
  const expiry = `${String(card.expMonth).padStart(2, "0")}/${String(card.expYear % 100).padStart(2, "0")}`;
  return page(
    "Card details",
    `<div class="card">
  <div class="label">${escapeHtml(card.brand)} card number</div>
  <div class="pan" id="pan">${escapeHtml(pan)}</div>
  <div class="row">
    <div><div class="label">Expires</div><div class="value" id="expiry">${escapeHtml(expiry)}</div></div>
    <div><div class="label">CVV</div><div class="value" id="cvv">${escapeHtml(card.cvv)}</div></div>
  </div>
</div>`,
  );
}

/** The 410 page: the link was used, has expired, or never existed; it names no card. */
export function renderRevealGonePage(): string {
  return page(
    "Link expired",
    `<p>This card details link has expired or was already used. Ask for a new one.</p>`,
  );
}
