import { randomBytes } from "node:crypto";
import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { money } from "../core/money.js";
import { umaPattern } from "../customers/customers.js";
import * as platformStore from "../platform/store.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import type { ClaimInvitationBody, CreateInvitationBody, Invitation } from "./schemas.js";
import * as store from "./store.js";

/** Crockford base32 (no I, L, O, U): codes are read aloud and typed by people. */
const codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_LENGTH = 12;

/** A new invitation code: 12 Crockford base32 characters, 60 random bits. */
function newCode(): string {
  return [...randomBytes(CODE_LENGTH)].map((byte) => codeAlphabet[byte % 32]).join("");
}

/** The wire Invitation; a PENDING invitation past `expiresAt` (platform clock) reads EXPIRED. */
export function toInvitation(row: store.InvitationRow, now: Date): Invitation {
  const expired = row.status === "PENDING" && row.expires_at !== null && row.expires_at <= now;
  const invitation: Invitation = {
    code: row.code,
    url: row.url,
    inviterUma: row.inviter_uma,
    status: expired ? "EXPIRED" : row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.invitee_uma !== null) invitation.inviteeUma = row.invitee_uma;
  if (row.amount_to_send !== null) invitation.amountToSend = money(row.amount_to_send, "USD");
  if (row.expires_at) invitation.expiresAt = row.expires_at.toISOString();
  if (row.claimed_at) invitation.claimedAt = row.claimed_at.toISOString();
  if (row.cancelled_at) invitation.cancelledAt = row.cancelled_at.toISOString();
  return invitation;
}

function checkUma(field: string, value: string): void {
  if (!umaPattern.test(value)) {
    throw new ApiError("INVALID_UMA_ADDRESS", {
      reason: `${field} must look like $name@domain.tld.`,
      details: { field },
    });
  }
}

/** The platform's invitationBaseUrl, or `400 INVITATIONS_NOT_CONFIGURED`. */
async function invitationBaseUrl(tx: Tx, caller: Caller): Promise<string> {
  const platform = await platformStore.findPlatform(tx, caller.platformId);
  const base = platform?.invitation_base_url;
  if (!base) {
    throw new ApiError("INVITATIONS_NOT_CONFIGURED", {
      reason: "Invitations are not configured; set invitationBaseUrl with PATCH /config.",
    });
  }
  return base;
}

async function findInvitationOrThrow(tx: Tx, caller: Caller, code: string, lock = false) {
  const row = await store.findInvitation(tx, caller.platformId, code.toUpperCase(), lock);
  if (!row) throw new ApiError("INVITATION_NOT_FOUND", { reason: `No invitation ${code}.` });
  return row;
}

/** Claim and cancel act only on a PENDING invitation that has not expired. */
function requireOpen(row: store.InvitationRow, now: Date): void {
  const status = toInvitation(row, now).status;
  if (status === "CLAIMED")
    throw new ApiError("INVITATION_ALREADY_CLAIMED", {
      reason: `Invitation ${row.code} was already claimed.`,
    });
  if (status === "CANCELLED")
    throw new ApiError("INVITATION_CANCELLED", { reason: `Invitation ${row.code} was cancelled.` });
  if (status === "EXPIRED")
    throw new ApiError("CONFLICT", {
      reason: `Invitation ${row.code} expired at ${row.expires_at?.toISOString()}.`,
    });
}

/** `POST /invitations`: a customer (by UMA address) invites someone; needs `invitationBaseUrl`. */
export async function createInvitation(
  deps: Deps,
  caller: Caller,
  input: CreateInvitationBody,
): Promise<Invitation> {
  const now = nowFor(deps, caller);
  if (input.expiresAt !== undefined && new Date(input.expiresAt) <= now)
    throw invalidField("expiresAt", "must be in the future");
  checkUma("inviterUma", input.inviterUma);
  return deps.db.transaction(async (tx) => {
    const base = await invitationBaseUrl(tx, caller);
    const inviter = await store.findCustomerByUma(tx, caller.platformId, input.inviterUma);
    if (!inviter)
      throw new ApiError("CUSTOMER_NOT_FOUND", {
        reason: `No customer has the UMA address ${input.inviterUma}.`,
      });
    if (inviter.is_deleted)
      throw new ApiError("CONFLICT", { reason: `Customer ${inviter.id} is deleted; it cannot invite.` });
    const code = newCode();
    const row: store.InvitationRow = {
      code,
      platform_id: caller.platformId,
      url: `${base.replace(/\/+$/, "")}/${code}`,
      inviter_customer_id: inviter.id,
      inviter_uma: input.inviterUma,
      invitee_uma: null,
      amount_to_send: input.amountToSend ?? null,
      status: "PENDING",
      expires_at: input.expiresAt ? new Date(input.expiresAt) : null,
      claimed_at: null,
      cancelled_at: null,
      created_at: now,
      updated_at: now,
    };
    await store.insertInvitation(tx, row);
    return toInvitation(row, now);
  });
}

/** `GET /invitations/{code}`: another platform's code is `404 INVITATION_NOT_FOUND` like an unknown one. */
export async function getInvitation(deps: Deps, caller: Caller, code: string): Promise<Invitation> {
  const row = await deps.db.transaction((tx) => findInvitationOrThrow(tx, caller, code));
  return toInvitation(row, nowFor(deps, caller));
}

/**
 * `POST /invitations/{code}/claim`: under the invitation's row lock, so of two concurrent claims exactly
 * one wins and the other sees CLAIMED. Fires INVITATION.CLAIMED in the same transaction.
 */
export async function claimInvitation(
  deps: Deps,
  caller: Caller,
  code: string,
  input: ClaimInvitationBody,
): Promise<Invitation> {
  checkUma("inviteeUma", input.inviteeUma);
  return deps.db.transaction(async (tx) => {
    await invitationBaseUrl(tx, caller);
    const row = await findInvitationOrThrow(tx, caller, code, true);
    const now = nowFor(deps, caller);
    requireOpen(row, now);
    if (input.inviteeUma.toLowerCase() === row.inviter_uma.toLowerCase())
      throw invalidField("inviteeUma", "must differ from the inviter's UMA address");
    const claimed = toInvitation(await store.markClaimed(tx, row.code, input.inviteeUma, now), now);
    await enqueueEvent(tx, { platformId: caller.platformId, type: "INVITATION.CLAIMED", data: claimed, now });
    return claimed;
  });
}

/** `POST /invitations/{code}/cancel`: a PENDING invitation becomes CANCELLED and can no longer be claimed. */
export async function cancelInvitation(deps: Deps, caller: Caller, code: string): Promise<Invitation> {
  return deps.db.transaction(async (tx) => {
    const row = await findInvitationOrThrow(tx, caller, code, true);
    const now = nowFor(deps, caller);
    requireOpen(row, now);
    return toInvitation(await store.markCancelled(tx, row.code, now), now);
  });
}
