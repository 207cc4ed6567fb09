import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { findExternalAccountOrThrow } from "../external-accounts/external-accounts.js";
import type { ExternalAccount } from "../external-accounts/schemas.js";
import type { ExternalAccountRow } from "../external-accounts/store.js";
import { toExternalAccount } from "../external-accounts/wire.js";
import { answerChallenge, issueChallenge, requireUnlocked, toScaChallenge } from "./challenges.js";
import { findScaCustomerOrThrow } from "./regions.js";
import type { ScaChallenge } from "./schemas.js";
import { requireLiveSession } from "./sessions.js";
import * as store from "./store.js";

/**
 * The customer external account and its SCA-region customer, both locked: 404 for unknown, platform-owned
 * or foreign accounts; 409 CONFLICT for a customer outside the SCA regions; then the live session (409
 * SCA_SESSION_REQUIRED) and the lock (423).
 */
async function beneficiaryUnderSession(deps: Deps, tx: Tx, caller: Caller, rawId: string) {
  const account = await findExternalAccountOrThrow(tx, caller, rawId, "customer", true);
  const customer = await findScaCustomerOrThrow(tx, caller, account.customer_id ?? "");
  const now = nowFor(deps, caller);
  await requireLiveSession(tx, customer.id, now);
  requireUnlocked(await store.lockScaCustomer(tx, caller.platformId, customer.id, now), now);
  return { account, customer, now };
}

/** `POST /customers/external-accounts/{id}/trust`: under a live SCA session; trusting again changes nothing. */
export async function trustBeneficiary(deps: Deps, caller: Caller, rawId: string): Promise<ExternalAccount> {
  return deps.db.transaction(async (tx) => {
    const { account, now } = await beneficiaryUnderSession(deps, tx, caller, rawId);
    if (account.trusted_at) return toExternalAccount(account);
    return toExternalAccount(await store.setTrustedAt(tx, account.id, now, now));
  });
}

/**
 * `POST /customers/external-accounts/{id}/untrust`, step one of two: under a live SCA session, an OTP
 * challenge that `/confirm` answers. The account stays trusted until then; an account that is
 * not trusted is `409 CONFLICT`.
 */
export async function startUntrust(deps: Deps, caller: Caller, rawId: string): Promise<ScaChallenge> {
  return deps.db.transaction(async (tx) => {
    const { account, customer, now } = await beneficiaryUnderSession(deps, tx, caller, rawId);
    if (!account.trusted_at)
      throw new ApiError("CONFLICT", {
        reason: `External account ${account.id} is not a trusted beneficiary.`,
      });
    const row = await issueChallenge(deps, tx, caller, {
      customer,
      purpose: "UNTRUST_BENEFICIARY",
      factor: "OTP",
      subjectId: account.id,
      now,
    });
    return toScaChallenge(row);
  });
}

/**
 * `POST /customers/external-accounts/{id}/confirm {code}`, step two: answers the open untrust
 * challenge (none open → `409 CONFLICT`); the account is no longer trusted and can be deleted.
 */
export async function confirmUntrust(
  deps: Deps,
  caller: Caller,
  rawId: string,
  code: string,
): Promise<ExternalAccount> {
  const requestId = await deps.db.transaction(async (tx) => {
    const { account } = await beneficiaryUnderSession(deps, tx, caller, rawId);
    const open = await store.latestOpenChallenge(
      tx,
      account.customer_id ?? "",
      "UNTRUST_BENEFICIARY",
      account.id,
    );
    if (!open || !account.trusted_at)
      throw new ApiError("CONFLICT", {
        reason: `No untrust of external account ${account.id} is waiting; call /untrust first.`,
      });
    return open.id;
  });
  return answerChallenge(
    deps,
    caller,
    { rawId: requestId, purposes: ["UNTRUST_BENEFICIARY"], answer: { code }, field: "code" },
    async (tx, challenge, now) => {
      const account: ExternalAccountRow = await findExternalAccountOrThrow(
        tx,
        caller,
        challenge.subject_id ?? "",
        "customer",
        true,
      );
      return toExternalAccount(await store.setTrustedAt(tx, account.id, null, now));
    },
  );
}
