import type { FieldError } from "../../core/errors/api-error.js";

/** The largest photo the sandbox provider takes (a phone selfie is 1–4 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export type LivenessOutcome = "PASS" | "FAIL";
/** How the person reached the provider: the hosted page, or a provider SDK holding the challenge's `token`. */
export type LivenessChannel = "HOSTED_PAGE" | "SDK";

/** One completed liveness flow, from either channel, before it is checked. */
export interface LivenessInput {
  channel: LivenessChannel;
  consent: boolean;
  /** The photo's bytes; undefined when none was sent. */
  image: Uint8Array | undefined;
  /** The sandbox's pass/fail choice, as sent. */
  outcome: string | undefined;
}

/** A submission that passed the checks. */
export interface LivenessSubmission {
  channel: LivenessChannel;
  image: Uint8Array;
  outcome: LivenessOutcome;
}

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  prefix.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The sandbox accepts any image but nothing else: the bytes must start like a PNG, JPEG, GIF, WebP,
 * BMP, or an ISO-BMFF image (HEIC/HEIF from phone cameras, AVIF). The declared type is not trusted.
 */
export function isImage(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return true;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return true;
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return true;
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return true;
  if (startsWith(bytes, ascii("BM")) && bytes.length > 26) return true;
  if (startsWith(bytes, ascii("ftyp"), 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    return ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1", "avif", "avis"].includes(brand);
  }
  return false;
}

/** Standard or URL-safe base64, padding optional; undefined when the text is not base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text) || text.length % 4 === 1) return undefined;
  return new Uint8Array(Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64"));
}

/** Every problem with a submission, one FieldError per field, all at once (conventions §1.7). */
export function checkSubmission(
  input: LivenessInput,
): { ok: LivenessSubmission } | { problems: FieldError[] } {
  const problems: FieldError[] = [];
  if (!input.consent) problems.push({ field: "consent", message: "must be given to continue" });
  const image = input.image;
  if (image === undefined || image.length === 0) {
    problems.push({ field: "image", message: "is required: take a photo or choose one" });
  } else if (image.length > MAX_IMAGE_BYTES) {
    problems.push({ field: "image", message: `must be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB` });
  } else if (!isImage(image)) {
    problems.push({ field: "image", message: "is not an image (PNG, JPEG, GIF, WebP, BMP, HEIC or AVIF)" });
  }
  const outcome = input.outcome;
  if (outcome !== "PASS" && outcome !== "FAIL") {
    problems.push({ field: "outcome", message: "must be PASS or FAIL (the sandbox's choice of result)" });
  }
  if (problems.length > 0 || image === undefined || (outcome !== "PASS" && outcome !== "FAIL"))
    return { problems };
  return { ok: { channel: input.channel, image, outcome } };
}
