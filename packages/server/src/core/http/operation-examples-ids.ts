/**
 * Ids shared by the request body examples, in the service's `<Type>:<uuid>` format (core/ids.ts), so an
 * example pasted into "Try it out" passes validation and needs only the ids swapped for real ones. None
 * ends like a sandbox magic suffix (`00x`), so a swapped-in example takes the ordinary path.
 */
export const exampleIds = {
  customer: "Customer:019542f5-b3e7-1d02-0000-0000000c0ffe",
  internalAccount: "InternalAccount:019542f5-b3e7-1d02-0000-0000000a1b2c",
  embeddedWallet: "InternalAccount:019542f5-b3e7-1d02-0000-0000000e3b41",
  externalAccount: "ExternalAccount:019542f5-b3e7-1d02-0000-0000000d4e5f",
  quote: "Quote:019542f5-b3e7-1d02-0000-000000012a4b",
  card: "Card:019542f5-b3e7-1d02-0000-0000000ca4d1",
  cardTransaction: "CardTransaction:019542f5-b3e7-1d02-0000-0000000c7a11",
  scaChallenge: "Request:019542f5-b3e7-1d02-0000-0000000f19c3",
} as const;

/** Client P-256 public keys (HPKE targets, session keys): compressed and uncompressed, lowercase hex. */
export const exampleKeys = {
  compressed: "0204081b5cafeed874902c750556e6ff421b9176c1990d2a19e5b00b0ca8e7f8a7",
  uncompressed:
    "0404081b5cafeed874902c750556e6ff421b9176c1990d2a19e5b00b0ca8e7f8a7d39865cb85badfa7a8fd9b7d9b60814c8fa924136e11a68410abcd320916120c",
} as const;

/** The sandbox's one-time code for every OTP (conventions §5.4). */
export const SANDBOX_OTP = "000000";

/** An end user's address from the documentation range (RFC 5737). */
export const EXAMPLE_IP = "203.0.113.10";
