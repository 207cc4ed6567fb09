import { randomBytes } from "node:crypto";
import type { Executor, Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { sha256Hex } from "../core/hash.js";
import type { Caller } from "../core/http/context.js";
import { API_VERSION } from "../core/http/version.js";
import { frameAncestors } from "../platform/card-reveal-origins.js";
import { findPlatform } from "../platform/store.js";
import { findCardOrThrow } from "./issue.js";
import type { RevealLink } from "./management-schemas.js";
import { sandboxCvv, sandboxPan } from "./pan.js";
import * as store from "./store.js";

/** A reveal link lives 5 minutes from issue on the platform clock (conventions §6.2). */
export const REVEAL_TTL_MS = 5 * 60_000;
const revealable = new Set(["ACTIVE", "FROZEN"]);
// 32 random bytes in base64url: 43 characters, no padding.
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** The path of the public reveal page under the version prefix; the token is its last segment. */
export const REVEAL_PAGE_PATH = "/cards/embed/:token";

/** What the reveal page shows: the card's full number, expiry and security code. */
export interface RevealedCard {
  pan: string;
  cvv: string;
  expMonth: number;
  expYear: number;
  brand: string;
  /** The CSP frame-ancestors of its platform (platform/card-reveal-origins.ts). */
  frameAncestors: string;
}

/**
 * `POST /cards/{id}/reveal`: a single-use link, valid 5 minutes, to a page showing the PAN, expiry and
 * CVV of an ACTIVE or FROZEN card (else `409 CONFLICT`). Only the token's sha256 is stored, and the link
 * is never put in an event. `origin` is the service's public address (PAYSVC_PUBLIC_URL, else the listen
 * address), never the request's Host header, which a caller controls.
 */
export async function revealCard(
  deps: Deps,
  caller: Caller,
  rawId: string,
  origin: string,
): Promise<RevealLink> {
  return deps.db.transaction(async (tx) => {
    const card = await findCardOrThrow(tx, caller, rawId);
    if (!revealable.has(card.status)) {
      throw new ApiError("CONFLICT", {
        reason: `Card ${card.id} is ${card.status}; only ACTIVE and FROZEN cards can be revealed.`,
      });
    }
    const token = randomBytes(32).toString("base64url");
    const now = nowFor(deps, caller);
    const expiresAt = new Date(now.getTime() + REVEAL_TTL_MS);
    await insertReveal(tx, {
      tokenHash: sha256Hex(token),
      platformId: card.platform_id,
      cardId: card.id,
      expiresAt,
      now,
    });
    const path = REVEAL_PAGE_PATH.replace(":token", token);
    return { panEmbedUrl: `${origin}/${API_VERSION}${path}`, expiresAt: expiresAt.toISOString() };
  });
}

/**
 * The public reveal page's lookup: consumes the link and returns the card to show, or null when the
 * token is unknown, used, expired, or its card is no longer ACTIVE or FROZEN. Consumption is one
 * conditional UPDATE, so of two concurrent visits exactly one sees the card.
 */
export async function openReveal(deps: Deps, token: string): Promise<RevealedCard | null> {
  if (!tokenPattern.test(token)) return null;
  return deps.db.transaction(async (tx) => {
    const consumed = await consumeReveal(tx, sha256Hex(token), deps.clock.now());
    if (!consumed) return null;
    const card = await store.findCard(tx, consumed.platform_id, consumed.card_id);
    if (!card || !revealable.has(card.status)) return null;
    const platform = await findPlatform(tx, consumed.platform_id);
    if (!platform) return null;
    return {
      frameAncestors: frameAncestors(platform.card_reveal_origins ?? [], platform.environment),
      pan: sandboxPan(card.id),
      cvv: sandboxCvv(card.id),
      expMonth: card.exp_month,
      expYear: card.exp_year,
      brand: card.brand,
    };
  });
}

async function insertReveal(
  tx: Tx,
  reveal: { tokenHash: string; platformId: string; cardId: string; expiresAt: Date; now: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO card_reveals (token_hash, platform_id, card_id, expires_at, used_at, created_at)
     VALUES ($1, $2, $3, $4, NULL, $5)`,
    [reveal.tokenHash, reveal.platformId, reveal.cardId, reveal.expiresAt, reveal.now],
  );
}

/**
 * Marks an unused, unexpired link used and returns its card. "Now" is the service clock moved by the
 * link's platform's sandbox offset, read in the same statement (the page is called without a platform).
 */
async function consumeReveal(
  tx: Executor,
  tokenHash: string,
  serviceNow: Date,
): Promise<{ platform_id: string; card_id: string } | undefined> {
  const [row] = await tx.query<{ platform_id: string; card_id: string }>(
    `UPDATE card_reveals r
        SET used_at = $2::timestamptz + p.clock_offset_ms * interval '1 millisecond'
       FROM platforms p
      WHERE p.id = r.platform_id AND r.token_hash = $1 AND r.used_at IS NULL
        AND r.expires_at > $2::timestamptz + p.clock_offset_ms * interval '1 millisecond'
      RETURNING r.platform_id, r.card_id`,
    [tokenHash, serviceNow],
  );
  return row;
}
