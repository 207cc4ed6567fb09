import { randomBytes } from "node:crypto";
import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { PageRequest, PageResult } from "../core/http/pagination.js";
import { newId, parseId, sandboxSuffix } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { findActiveCustomerOrThrow } from "../customers/customers.js";
import { lockPlatform } from "../platform/store.js";
import { checkFundingSources } from "./funding.js";
import { CARD_ISSUANCE } from "./issuance-jobs.js";
import { sandboxPan } from "./pan.js";
import type { Card, CreateCardBody } from "./schemas.js";
import * as store from "./store.js";
import { toCard } from "./wire.js";

/** Sandbox issuer timing (conventions §6.5): `005` activates after about 30 s, others at once. */
export const DELAYED_ACTIVATION_MS = 30_000;
const CARD_VALIDITY_YEARS = 3;

/** Reads a card of the caller's platform; malformed, foreign or unknown ids are `404 NOT_FOUND`. */
export async function findCardOrThrow(
  db: Parameters<typeof store.findCard>[0],
  caller: Caller,
  rawId: string,
  lock = false,
): Promise<store.CardRow> {
  return cardOr404(rawId, (id) => store.findCard(db, caller.platformId, id, lock));
}

/** findCardOrThrow with the cardholder's platformCustomerId, for the card transaction events it fires. */
export async function findCardAndCardholderOrThrow(
  db: Parameters<typeof store.findCard>[0],
  caller: Caller,
  rawId: string,
  lock = false,
): Promise<{ card: store.CardRow; cardholder: store.Cardholder }> {
  return cardOr404(rawId, (id) => store.findCardWithCardholder(db, caller.platformId, id, lock));
}

/** A malformed id and an unknown (or another platform's) card answer the same 404. */
async function cardOr404<T>(rawId: string, find: (id: string) => Promise<T | undefined>): Promise<T> {
  const id = parseId("Card", rawId);
  const found = id ? await find(id) : undefined;
  if (!found) throw new ApiError("NOT_FOUND", { reason: `No card ${rawId}.` });
  return found;
}

/**
 * `POST /cards`: issues a VIRTUAL card in PROCESSING after checking the cardholder (exists, KYC
 * APPROVED), its funding sources and the live-card caps under the platform's row lock, and schedules
 * the sandbox issuer's answer by suffix. `threeDSecurePassword` is used for nothing and never stored.
 */
export async function createCard(deps: Deps, caller: Caller, body: CreateCardBody): Promise<Card> {
  return deps.db.transaction(async (tx) => {
    const cardholder = await findActiveCustomerOrThrow(tx, caller, body.cardholderId);
    const currency = await checkFundingSources(tx, caller, cardholder.id, body.fundingSources);
    if (cardholder.kyc_status !== "APPROVED") {
      throw new ApiError("CARDHOLDER_KYC_NOT_APPROVED", {
        reason: `Cardholder ${cardholder.id} has KYC status ${cardholder.kyc_status}, not APPROVED.`,
      });
    }
    // The platform row lock serializes card creation per platform, so the caps hold under concurrency.
    const platform = await lockPlatform(tx, caller.platformId);
    if (!platform) throw new Error(`platform ${caller.platformId} vanished`);
    const live = await store.countLiveCards(tx, caller.platformId, cardholder.id);
    if (live.platform >= platform.max_live_cards) {
      throw new ApiError("CARD_LIMIT_REACHED", {
        reason: `The platform holds ${live.platform} live cards, its maximum; closing a card frees a slot.`,
      });
    }
    const perCardholder = platform.max_live_cards_per_cardholder as number | null;
    if (perCardholder !== null && live.cardholder >= perCardholder) {
      throw new ApiError("CARD_LIMIT_REACHED", {
        reason: `Cardholder ${cardholder.id} already holds ${live.cardholder} live card(s), the maximum allowed.`,
      });
    }
    if (platform.environment !== "SANDBOX") {
      throw new ApiError("NOT_IMPLEMENTED", { reason: "No card issuer is configured for this platform." });
    }
    const now = nowFor(deps, caller);
    const id = newId("Card");
    const platformCardId = body.platformCardId ?? id.slice("Card:".length);
    const expires = new Date(now);
    expires.setUTCFullYear(expires.getUTCFullYear() + CARD_VALIDITY_YEARS);
    const row: store.CardRow = {
      id,
      platform_id: caller.platformId,
      cardholder_id: cardholder.id,
      platform_card_id: platformCardId,
      status: "PROCESSING",
      status_reason: null,
      pin_status: "NOT_SET",
      pin_hash: null,
      pin_failed_attempts: 0,
      brand: "VISA",
      form: "VIRTUAL",
      last4: sandboxPan(id).slice(-4),
      exp_month: expires.getUTCMonth() + 1,
      exp_year: expires.getUTCFullYear(),
      funding_sources: body.fundingSources,
      max_spend_per_transaction: body.maxSpendPerTransaction ?? null,
      currency,
      supports_digital_wallet_tokenization: platform.card_tokenization_2fa_config !== null,
      processor_ref: `proc_${randomBytes(12).toString("hex")}`,
      issuer_ref: `iss_${randomBytes(12).toString("hex")}`,
      created_at: now,
      updated_at: now,
    };
    const taken = () =>
      new ApiError("CONFLICT", { reason: `A card with platformCardId ${platformCardId} already exists.` });
    if (await store.findCardByPlatformCardId(tx, caller.platformId, platformCardId)) throw taken();
    await store.insertCard(tx, row).catch((error: unknown) => {
      throw isUniqueViolation(error, "cards_platform_card_id_key") ? taken() : error;
    });
    await scheduleIssuerAnswer(tx, row, body.platformCardId ?? cardholder.id, now);
    return toCard(row);
  });
}

/** Issuance suffixes (conventions §6.5): 001 stays PROCESSING, 002 rejected, 005 late, others at once. */
async function scheduleIssuerAnswer(
  tx: Parameters<typeof store.insertCard>[0],
  card: store.CardRow,
  suffixSource: string,
  now: Date,
): Promise<void> {
  const suffix = sandboxSuffix(suffixSource);
  if (suffix === "001") return;
  const outcome = suffix === "002" ? "REJECT" : "ACTIVATE";
  const runAt = new Date(now.getTime() + (suffix === "005" ? DELAYED_ACTIVATION_MS : 0));
  await scheduleJob(tx, {
    platformId: card.platform_id,
    kind: CARD_ISSUANCE,
    payload: { cardId: card.id, outcome },
    runAt,
    now,
  });
}

export async function getCard(deps: Deps, caller: Caller, rawId: string): Promise<Card> {
  return toCard(await findCardOrThrow(deps.db, caller, rawId));
}

export async function listCards(
  deps: Deps,
  caller: Caller,
  filters: store.CardFilters,
  page: PageRequest,
): Promise<PageResult<Card>> {
  const result = await store.listCards(deps.db, caller.platformId, filters, page);
  return { ...result, data: result.data.map(toCard) };
}
