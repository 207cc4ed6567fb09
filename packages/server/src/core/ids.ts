import { randomBytes } from "node:crypto";

/** The closed table of id prefixes (conventions §1.3). */
export const idTypes = [
  "Platform",
  "Token",
  "Customer",
  "InternalAccount",
  "ExternalAccount",
  "Quote",
  "Transaction",
  "CardTransaction",
  "Card",
  "BalanceChange",
  "AuthMethod",
  "Session",
  "Request",
  "Webhook",
  "Verification",
  "Document",
  "BeneficialOwner",
  "Stablecoin",
  "StablecoinOperation",
  "StablecoinProviderAccount",
  "Agent",
  "Lookup",
  "DelegatedKey",
  "Job",
] as const;

export type IdType = (typeof idTypes)[number];
export type Id<T extends IdType> = `${T}:${string}`;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Sandbox rules read the last three characters; a generated id must never end like a magic suffix.
const magicSuffix = /00\d$/;

let lastMs = 0;
let sequence = 0;

// Random bytes drawn from the CSPRNG a few kilobytes at a time, as crypto.randomUUID caches them: one call
// into the CSPRNG per 256 ids instead of one or two per id (issue 20).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;
function freshBytes(length: number): Buffer {
  if (poolOffset + length > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  // Each byte is handed out once (ids are public, so nothing is kept secret by clearing the pool).
  const bytes = pool.subarray(poolOffset, poolOffset + length);
  poolOffset += length;
  return bytes;
}

/**
 * A UUIDv7 (RFC 9562): 48-bit millisecond time, version, a 12-bit sequence (rand_a) that keeps ids made
 * by this process in creation order within one millisecond (RFC 9562 §6.2 method 1), variant, random bits.
 */
export function uuidv7(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    sequence = freshBytes(2).readUInt16BE(0) & 0x7ff;
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  for (;;) {
    const bytes = freshBytes(16);
    bytes.writeUIntBE(lastMs, 0, 6);
    bytes[6] = 0x70 | (sequence >> 8);
    bytes[7] = sequence & 0xff;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    const hex = bytes.toString("hex");
    const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    if (!magicSuffix.test(uuid)) return uuid;
  }
}

/** A new `<Type>:<uuidv7>` id. */
export function newId<T extends IdType>(type: T): Id<T> {
  return `${type}:${uuidv7()}`;
}

/** Parses `<Type>:<uuid>`; null for a malformed id or another type's, which callers answer as the resource's 404. */
export function parseId<T extends IdType>(type: T, raw: unknown): Id<T> | null {
  if (typeof raw !== "string") return null;
  const prefix = `${type}:`;
  if (!raw.startsWith(prefix)) return null;
  const uuid = raw.slice(prefix.length);
  return uuidPattern.test(uuid) ? (raw as Id<T>) : null;
}

/** The last three characters of a string: the sandbox suffix rules' input (conventions §1.9). */
export function sandboxSuffix(value: string | null | undefined): string {
  return (value ?? "").slice(-3);
}
