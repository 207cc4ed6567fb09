import type { FieldError } from "../../core/errors/api-error.js";
import {
  escapeHtml,
  hostedFormPageHeaders,
  hostedFormPageStyle,
  htmlDocument,
} from "../../core/http/html-page.js";
import type { GoneReason, LivenessView } from "./liveness-flow.js";
import { MAX_IMAGE_BYTES } from "./liveness-submission.js";

/**
 * Headers of every hosted liveness page (core/http/html-page.ts); apps that embed use the provider-SDK path
 * (the challenge's `token`) instead. Never cached or stored; no Referer leaking the token.
 */
export const livenessPageHeaders = hostedFormPageHeaders;

const style = `${hostedFormPageStyle}
  fieldset { border: 1px solid #d1d5db; border-radius: 0.5rem; margin: 1rem 0; padding: 0.75rem 1rem; }
  legend { font-weight: 600; padding: 0 0.25rem; }
  .wallet { font-family: ui-monospace, monospace; word-break: break-all; }
  .sandbox { background: #fef3c7; border-color: #f59e0b; }
  .errors { background: #fee2e2; border: 1px solid #ef4444; border-radius: 0.5rem; padding: 0.5rem 1rem; }
  label { display: block; margin: 0.35rem 0; }
`;

function page(title: string, body: string): string {
  return htmlDocument(title, style, `<main>\n${body}\n</main>`);
}

const fieldLabels: Record<string, string> = { consent: "Consent", image: "Photo", outcome: "Result" };

/**
 * The flow, one form without scripts: consent, a selfie from the camera (phones open the front camera
 * for `capture="user"`) or an uploaded photo, and the sandbox's pass/fail choice. `errors` are the
 * problems of a previous submission, shown above the form.
 */
export function renderLivenessPage(view: LivenessView, errors: FieldError[] = []): string {
  const problems = errors.length
    ? `<div class="errors" role="alert"><p>Please fix the following:</p><ul>${errors
        .map((e) => `<li>${escapeHtml(fieldLabels[e.field] ?? e.field)} ${escapeHtml(e.message)}</li>`)
        .join("")}</ul></div>`
    : "";
  return page(
    "Verify your identity",
    `<h1>Verify your identity</h1>
<p>This confirms that you own the wallet below. It takes a minute.</p>
<p class="hint">${escapeHtml(view.accountType)}</p>
<p class="wallet" id="wallet">${escapeHtml(view.address)}</p>
<p class="hint">This link expires at <time datetime="${escapeHtml(view.expiresAt.toISOString())}">${escapeHtml(
      view.expiresAt.toISOString().replace("T", " ").slice(0, 16),
    )} UTC</time>.</p>
${problems}
<form method="post" enctype="multipart/form-data">
<fieldset>
<legend>1. Consent</legend>
<label><input type="checkbox" name="consent" value="yes" required> I agree that a photo of my face is
processed to check that I am a real, present person and the owner of this wallet.</label>
</fieldset>
<fieldset>
<legend>2. Take a selfie</legend>
<label for="image">Use your camera, or upload a photo (at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB).</label>
<input type="file" id="image" name="image" accept="image/*" capture="user" required>
</fieldset>
<fieldset class="sandbox">
<legend>3. Sandbox result</legend>
<p class="hint">Sandbox only: choose what the verification provider answers.</p>
<label><input type="radio" name="outcome" value="PASS" required> Pass (the wallet becomes verified)</label>
<label><input type="radio" name="outcome" value="FAIL"> Fail (the wallet becomes unverified)</label>
</fieldset>
<button type="submit">Submit</button>
</form>`,
  );
}

/** After a submission: the result arrives shortly, by webhook to the platform. */
export function renderThankYouPage(): string {
  return page(
    "Thank you",
    `<h1>Thank you</h1>
<p id="done">Thank you — you can close this window.</p>
<p class="hint">Your verification is being processed; the app that sent you here will be told the result.</p>`,
  );
}

const goneText: Record<GoneReason, string> = {
  UNKNOWN: "This verification link is not valid.",
  SUBMITTED: "This verification was already submitted. You can close this window.",
  FINISHED: "This verification is already complete. You can close this window.",
  ABANDONED: "This verification link was replaced by a newer one. Use the latest link you were sent.",
  EXPIRED: "This verification link has expired. Ask for a new one.",
};

/** The 410 page: the link cannot be used (any more); it has no form. */
export function renderGonePage(reason: GoneReason): string {
  return page(
    "Link no longer valid",
    `<h1>Link no longer valid</h1>\n<p>${escapeHtml(goneText[reason])}</p>`,
  );
}

/** A page for anything else that stops the flow (no provider, a request the page cannot read). */
export function renderProblemPage(title: string, text: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`);
}
