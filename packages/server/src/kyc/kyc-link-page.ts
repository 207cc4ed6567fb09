import {
  escapeHtml,
  hostedFormPageHeaders,
  hostedFormPageStyle,
  htmlDocument,
} from "../core/http/html-page.js";
import type { KycPageView } from "./kyc-link.js";
import type { Verification } from "./schemas.js";

/** Headers of every hosted KYC page (core/http/html-page.ts). */
export const kycPageHeaders = hostedFormPageHeaders;

const style = `${hostedFormPageStyle}
  .sandbox { background: #fef3c7; border: 1px solid #f59e0b; border-radius: 0.5rem; padding: 0.5rem 1rem; }
  .continue { font: inherit; padding: 0.6rem 1.2rem; border-radius: 0.5rem; background: #1d4ed8;
    color: #fff; text-decoration: none; display: inline-block; }
`;

const page = (title: string, body: string) => htmlDocument(title, style, `<main>\n${body}\n</main>`);
const subject = (view: KycPageView) => (view.customerType === "BUSINESS" ? "business" : "identity");

/** The form: one button that submits the customer's verification with what is on file. */
export function renderKycPage(view: KycPageView): string {
  return page(
    `Verify your ${subject(view)}`,
    `<h1>Verify your ${subject(view)}</h1>
${view.name ? `<p id="name">${escapeHtml(view.name)}</p>` : ""}
<p>Current status: <strong id="status">${escapeHtml(view.kycStatus)}</strong></p>
<p class="hint">This link expires at <time datetime="${escapeHtml(view.expiresAt.toISOString())}">${escapeHtml(
      view.expiresAt.toISOString().replace("T", " ").slice(0, 16),
    )} UTC</time>.</p>
<p class="sandbox">Sandbox: the details and documents already on file are checked; the outcome follows the
sandbox suffix rules.</p>
<form method="post"><button type="submit" name="submit" value="1">Submit for verification</button></form>`,
  );
}

/** After a submission: its status and, for RESOLVE_ERRORS, what is still missing. */
export function renderSubmittedPage(verification: Verification, view: KycPageView): string {
  const errors = verification.errors.length
    ? `<p>Still needed:</p><ul id="errors">${verification.errors
        .map((error) => `<li>${escapeHtml(error.reason)}</li>`)
        .join("")}</ul>`
    : "";
  const next = view.redirectUri
    ? `<p><a class="continue" id="continue" href="${escapeHtml(view.redirectUri)}">Continue</a></p>`
    : `<p class="hint">You can close this window.</p>`;
  return page(
    "Verification submitted",
    `<h1>Verification submitted</h1>
<p>Result: <strong id="result">${escapeHtml(verification.verificationStatus)}</strong></p>
${errors}
${next}`,
  );
}

/** The 410 page: the link cannot be used (any more). */
export function renderKycGonePage(reason: "UNKNOWN" | "EXPIRED"): string {
  const text =
    reason === "EXPIRED"
      ? "This verification link has expired. Ask for a new one."
      : "This verification link is not valid.";
  return page("Link no longer valid", `<h1>Link no longer valid</h1>\n<p>${escapeHtml(text)}</p>`);
}

export function renderKycProblemPage(title: string, text: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`);
}
