import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../../core/http/schemas.js";
import { MAX_IMAGE_BYTES } from "./liveness-submission.js";

/** The hosted page's path under the version prefix; the challenge's `token` is its last segment. */
export const LIVENESS_PAGE_PATH = "/ownership/liveness/:token";
/** The provider-SDK path: the same flow as JSON, for apps that embed a provider SDK with the `token`. */
export const LIVENESS_SESSIONS_PATH = "/ownership/liveness/:token/sessions";

export const LivenessParams = Type.Object({ token: Type.String({ maxLength: 200 }) });

/** Base64 of the largest photo, with room for padding. */
const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
/** The provider-SDK path's body: the largest photo in base64 plus the other fields. */
export const SESSION_BODY_LIMIT = MAX_IMAGE_BASE64 + 64 * 1024;

/**
 * `POST /ownership/liveness/{token}/sessions`: one completed liveness capture from a provider SDK,
 * equivalent to submitting the hosted page.
 */
export const LivenessSessionBody = Type.Object(
  {
    /** The person agreed to the biometric check; must be true. */
    consent: Type.Boolean(),
    /** The captured photo, standard or URL-safe base64 (PNG, JPEG, GIF, WebP, BMP, HEIC or AVIF). */
    image: Type.String({ minLength: 1, maxLength: MAX_IMAGE_BASE64 }),
    /** Sandbox: the provider's answer to report. */
    outcome: StringEnum(["PASS", "FAIL"]),
  },
  { additionalProperties: false },
);
export type LivenessSessionBody = Static<typeof LivenessSessionBody>;

/** `202`: the capture is recorded; the result arrives as EXTERNAL_ACCOUNT.STATUS_UPDATED (or by polling). */
export const LivenessSession = Type.Object({
  status: StringEnum(["SUBMITTED"]),
  submittedAt: DateTime(),
});
export type LivenessSession = Static<typeof LivenessSession>;
