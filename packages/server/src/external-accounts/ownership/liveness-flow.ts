import type { Deps } from "../../core/deps.js";
import type { FieldError } from "../../core/errors/api-error.js";
import { sha256Hex } from "../../core/hash.js";
import { scheduleJob } from "../../core/jobs/jobs.js";
import { findLiveness, markSubmitted } from "./liveness-store.js";
import { checkSubmission, type LivenessInput } from "./liveness-submission.js";

/** The job that reports the sandbox provider's result (liveness-jobs.ts). */
export const LIVENESS_COMPLETION = "external-accounts.liveness-completion";
/** The provider answers this long after the submission, on the platform clock: completion is asynchronous. */
export const LIVENESS_COMPLETION_DELAY_MS = 3_000;
// The challenge token is 32 random bytes in base64url (challenges.ts): 43 characters, no padding.
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** Why a link no longer opens the flow; the hosted page answers each with a 410. */
export type GoneReason = "UNKNOWN" | "SUBMITTED" | "FINISHED" | "ABANDONED" | "EXPIRED";

/** What the hosted page shows while the link is usable. */
export interface LivenessView {
  accountType: string;
  address: string;
  expiresAt: Date;
}

export type LivenessState =
  | { open: LivenessView }
  | { gone: GoneReason }
  /** The platform is not a sandbox one: no real liveness provider is configured to decide. */
  | { unavailable: true };

export type SubmitResult =
  | LivenessState
  | { invalid: FieldError[]; view: LivenessView }
  | { submitted: Date };

/**
 * Whether a liveness link can still be used: it names a LIVENESS challenge that is OPEN, not yet
 * submitted, not expired on its platform's clock, of a live account, on a sandbox platform.
 */
export async function viewLiveness(deps: Deps, token: string): Promise<LivenessState> {
  if (!tokenPattern.test(token)) return { gone: "UNKNOWN" };
  const found = await findLiveness(deps.db, sha256Hex(token), deps.clock.now());
  if (!found?.account) return { gone: "UNKNOWN" };
  const { challenge } = found;
  if (challenge.state === "ABANDONED") return { gone: "ABANDONED" };
  if (challenge.state !== "OPEN") return { gone: challenge.state === "EXPIRED" ? "EXPIRED" : "FINISHED" };
  if (challenge.submitted_at) return { gone: "SUBMITTED" };
  if (found.platformNow.getTime() >= challenge.expires_at.getTime()) return { gone: "EXPIRED" };
  if (found.environment !== "SANDBOX") return { unavailable: true };
  return {
    open: {
      accountType: found.account.account_type,
      address: found.account.address,
      expiresAt: challenge.expires_at,
    },
  };
}

/**
 * A completed liveness flow, from the hosted page or a provider SDK (both give the same outcome): the
 * link must still be usable and the submission complete (consent, an image, the sandbox's choice).
 * Records the submission once and schedules the provider's answer `LIVENESS_COMPLETION_DELAY_MS` later;
 * the account stays PENDING_OWNERSHIP_VERIFICATION until then. Only a digest of the photo is kept.
 */
export async function submitLiveness(deps: Deps, token: string, input: LivenessInput): Promise<SubmitResult> {
  const state = await viewLiveness(deps, token);
  if (!("open" in state)) return state;
  const checked = checkSubmission(input);
  if ("problems" in checked) return { invalid: checked.problems, view: state.open };
  const submission = checked.ok;
  const submitted = await deps.db.transaction(async (tx) => {
    const marked = await markSubmitted(tx, sha256Hex(token), deps.clock.now());
    if (!marked) return undefined;
    const { challenge, submittedAt } = marked;
    await scheduleJob(tx, {
      platformId: challenge.platform_id,
      kind: LIVENESS_COMPLETION,
      payload: {
        challengeId: challenge.id,
        outcome: submission.outcome,
        channel: submission.channel,
        imageSha256: sha256Hex(submission.image),
        imageBytes: submission.image.length,
      },
      runAt: new Date(submittedAt.getTime() + LIVENESS_COMPLETION_DELAY_MS),
      now: submittedAt,
    });
    return submittedAt;
  });
  // Another submission (or a new challenge, or the expiry) got there between the look and the update.
  if (!submitted) {
    const now = await viewLiveness(deps, token);
    return "open" in now ? { gone: "SUBMITTED" } : now;
  }
  return { submitted };
}
