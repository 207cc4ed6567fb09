import type { FastifyInstance, FastifyRequest } from "fastify";
import { MAX_IMAGE_BYTES } from "./liveness-submission.js";

/** The hosted page's form post: only the fields the flow reads; anything else is ignored. */
export interface LivenessForm {
  consent?: string;
  outcome?: string;
  /** The first non-empty file sent as `image`. */
  image?: Uint8Array;
}

/** A form post carrying the largest photo plus the other fields and multipart framing. */
export const FORM_BODY_LIMIT = MAX_IMAGE_BYTES + 64 * 1024;

class FormError extends Error {
  readonly statusCode = 400;
  readonly code = "LIVENESS_FORM_UNREADABLE";
}

async function fromFormData(data: FormData): Promise<LivenessForm> {
  const form: LivenessForm = {};
  const consent = data.get("consent");
  const outcome = data.get("outcome");
  if (typeof consent === "string") form.consent = consent;
  if (typeof outcome === "string") form.outcome = outcome;
  for (const entry of data.getAll("image")) {
    // An empty file input still sends a part (filename "", no bytes): that is no photo.
    if (typeof entry !== "string" && entry.size > 0) {
      form.image = new Uint8Array(await entry.arrayBuffer());
      break;
    }
  }
  return form;
}

/**
 * Body parsers for the hosted page's form posts, added to the page's own plugin only: Fastify scopes
 * content-type parsers to the plugin that adds them, so every other route still takes JSON alone.
 * Multipart is read by the platform's own `Response.formData()` (undici), no extra dependency.
 */
export function addLivenessFormParsers(app: FastifyInstance): void {
  app.addContentTypeParser(
    "multipart/form-data",
    { parseAs: "buffer", bodyLimit: FORM_BODY_LIMIT },
    async (request: FastifyRequest, body: Buffer) => {
      const contentType = request.headers["content-type"] ?? "";
      try {
        return await fromFormData(
          await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData(),
        );
      } catch (cause) {
        throw new FormError("The form could not be read.", { cause });
      }
    },
  );
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
    async (_request: FastifyRequest, body: string) => {
      const params = new URLSearchParams(body);
      const form: LivenessForm = {};
      const consent = params.get("consent");
      const outcome = params.get("outcome");
      if (consent !== null) form.consent = consent;
      if (outcome !== null) form.outcome = outcome;
      return form;
    },
  );
}
