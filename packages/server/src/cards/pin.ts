import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { cardEvent } from "./events.js";
import { findCardOrThrow } from "./issue.js";
import type { PinAttemptResult } from "./management-schemas.js";
import type { Card } from "./schemas.js";
import * as store from "./store.js";
import { toCard } from "./wire.js";

/** Wrong PIN attempts in a row that block the PIN (conventions §6.2). */
export const MAX_PIN_ATTEMPTS = 3;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
// scrypt N=2^14, r=8, p=1 (Node's defaults, fixed here so stored hashes stay comparable).
const SCRYPT_OPTIONS = { N: 16_384, r: 8, p: 1 };

// The async scrypt keeps the event loop free while a PIN hashes (tens of milliseconds per call).
function derive(pin: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(pin, salt, HASH_BYTES, SCRYPT_OPTIONS, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** A salted scrypt hash of a PIN, `scrypt$<salt b64>$<hash b64>`: the only form a PIN is ever stored in. */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return `scrypt$${salt.toString("base64")}$${(await derive(pin, salt)).toString("base64")}`;
}

/** Whether `pin` matches a stored hash, compared in constant time. */
export async function pinMatches(pin: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || salt === undefined || hash === undefined) {
    throw new Error("stored PIN hash is not in the scrypt$salt$hash form");
  }
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(pin, Buffer.from(salt, "base64"));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * `POST /cards/{id}/pin {pin}`: sets or replaces the PIN of a card that is not CLOSED. The PIN becomes
 * OK with the wrong-attempt count reset (which also unblocks a BLOCKED PIN). CARD.PIN_STATUS_CHANGE
 * fires only when pinStatus changes, so replacing an OK PIN fires nothing (interface "Card PIN status").
 */
export async function setPin(deps: Deps, caller: Caller, rawId: string, pin: string): Promise<Card> {
  // Hashed before the transaction: the row lock is not held while scrypt runs.
  const pinHash = await hashPin(pin);
  return deps.db.transaction(async (tx) => {
    const card = await findCardOrThrow(tx, caller, rawId, true);
    if (card.status === "CLOSED") {
      throw new ApiError("CARD_NOT_MUTABLE", { reason: `Card ${card.id} is CLOSED; its PIN cannot be set.` });
    }
    const now = nowFor(deps, caller);
    const next: store.CardRow = {
      ...card,
      pin_status: "OK",
      pin_hash: pinHash,
      pin_failed_attempts: 0,
      updated_at: now,
    };
    await store.updateCard(tx, next);
    if (card.pin_status !== "OK") await cardEvent(tx, "PIN_STATUS_CHANGE", next, now);
    return toCard(next);
  });
}

/**
 * Sandbox `simulate/pin_attempt`: checks a PIN as a terminal would. A correct PIN resets the count; a
 * wrong one adds one, and the MAX_PIN_ATTEMPTS-th in a row blocks the PIN (one CARD.PIN_STATUS_CHANGE).
 * A card without a usable PIN (NOT_SET, BLOCKED) or a CLOSED card is `409 CONFLICT` (§6.5 preconditions).
 */
export async function attemptPin(
  deps: Deps,
  caller: Caller,
  rawId: string,
  pin: string,
): Promise<PinAttemptResult> {
  return deps.db.transaction(async (tx) => {
    // The row lock serializes attempts, so concurrent wrong PINs are all counted.
    const card = await findCardOrThrow(tx, caller, rawId, true);
    if (card.status === "CLOSED") {
      throw new ApiError("CONFLICT", { reason: `Card ${card.id} is CLOSED; no PIN can be tried.` });
    }
    if (card.pin_status !== "OK" || card.pin_hash === null) {
      throw new ApiError("CONFLICT", {
        reason: `Card ${card.id} has pinStatus ${card.pin_status}; set a PIN before trying one.`,
      });
    }
    const correct = await pinMatches(pin, card.pin_hash);
    const failed = correct ? 0 : card.pin_failed_attempts + 1;
    const blocked = failed >= MAX_PIN_ATTEMPTS;
    if (failed !== card.pin_failed_attempts) {
      const now = nowFor(deps, caller);
      // The attempt count is not on the wire, so only a pinStatus change moves updatedAt.
      const next: store.CardRow = {
        ...card,
        pin_failed_attempts: failed,
        pin_status: blocked ? "BLOCKED" : "OK",
        updated_at: blocked ? now : card.updated_at,
      };
      await store.updateCard(tx, next);
      if (blocked) await cardEvent(tx, "PIN_STATUS_CHANGE", next, now);
    }
    return {
      correct,
      pinStatus: blocked ? "BLOCKED" : "OK",
      remainingAttempts: Math.max(0, MAX_PIN_ATTEMPTS - failed),
    };
  });
}
