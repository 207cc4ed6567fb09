import { p256 } from "@noble/curves/nist.js";
import type { Executor, Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId, parseId } from "../core/ids.js";
import { secretsOf } from "../core/secrets/process-box.js";
import { findWalletAccount, type WalletAccountRow } from "./account-store.js";
import type {
  CreateDelegatedKeyBody,
  DelegatedKey,
  ListDelegatedKeysQuery,
} from "./delegated-keys-schemas.js";
import * as store from "./delegated-keys-store.js";
import { isFirstCall, type SignedHttp, settlingErrors, signedCall } from "./signed-calls.js";
import { type Performer, type SignedResponse, signedRetry } from "./signed-retry.js";
import { activeSessionsByKey } from "./store.js";
import { checkProvisioned, lockAccount, walletAccountOrThrow } from "./wallet-account.js";

// Delegated keys (issue 21 §6, the hosted API's /auth/delegated-keys): the wallet's owner authorizes paysvc
// to sign card spending from the embedded wallet for one card. paysvc makes the P-256 key pair when the
// owner's signed retry arrives, keeps the private half sealed, and erases it when the key is revoked.

export function toDelegatedKey(row: store.DelegatedKeyRow): DelegatedKey {
  return {
    id: row.id,
    cardId: row.card_id,
    // paysvc's card funding sources are InternalAccount ids (conventions §6.1): the wallet itself.
    fundingSourceId: row.account_id,
    accountId: row.account_id,
    publicKey: row.public_key,
    nickname: row.nickname,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const keyNotFound = (rawId: string) => new ApiError("NOT_FOUND", { reason: `No delegated key ${rawId}.` });

/** A key of the caller's platform; malformed, foreign or unknown ids are `404 NOT_FOUND` (conventions §1.3). */
async function keyOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
  lock = false,
): Promise<store.DelegatedKeyRow> {
  const id = parseId("DelegatedKey", rawId);
  const row = id ? await store.findDelegatedKey(db, caller.platformId, id, lock) : undefined;
  if (!row) throw keyNotFound(rawId);
  return row;
}

/** `GET /auth/delegated-keys?accountId&fundingSourceId`: the platform's keys, every status, oldest first. */
export async function listKeys(
  deps: Deps,
  caller: Caller,
  query: ListDelegatedKeysQuery,
): Promise<{ data: DelegatedKey[] }> {
  const { accountId, fundingSourceId } = query;
  // Both name the wallet in paysvc; two different wallets match no key.
  if (accountId !== undefined && fundingSourceId !== undefined && accountId !== fundingSourceId)
    return { data: [] };
  const rows = await store.listDelegatedKeys(deps.db, caller.platformId, accountId ?? fundingSourceId);
  return { data: rows.map(toDelegatedKey) };
}

/** `GET /auth/delegated-keys/{id}`. */
export async function getKey(deps: Deps, caller: Caller, rawId: string): Promise<DelegatedKey> {
  return toDelegatedKey(await keyOrThrow(deps.db, caller, rawId));
}

/** The card a create names: `404 NOT_FOUND` for a malformed, foreign or unknown id (conventions §1.3). */
async function cardOrThrow(db: Executor, platformId: string, rawId: string): Promise<store.KeyCardRow> {
  const id = parseId("Card", rawId);
  const card = id ? await store.findKeyCard(db, platformId, id) : undefined;
  if (!card) throw new ApiError("NOT_FOUND", { reason: `No card ${rawId}.` });
  return card;
}

/** The wallet must be the cardholder's: the card funding source rule (conventions §1.7). */
function checkCardholder(account: WalletAccountRow, card: store.KeyCardRow): void {
  if (account.customer_id === card.cardholder_id) return;
  const message = `${account.id} is not an embedded wallet of the card's cardholder`;
  throw new ApiError("FUNDING_SOURCE_INELIGIBLE", {
    reason: `Funding source internalAccountId ${message}.`,
    details: { errors: [{ field: "internalAccountId", message }] },
  });
}

/** A CLOSED card takes no new key; one ACTIVE key per card and wallet. Checked on the first call and when run. */
async function checkCreatable(tx: Tx, account: WalletAccountRow, card: store.KeyCardRow): Promise<void> {
  if (card.status === "CLOSED")
    throw new ApiError("CARD_NOT_MUTABLE", {
      reason: `Card ${card.id} is closed; it takes no delegated key.`,
    });
  const active = await store.findActiveKeyFor(tx, card.id, account.id);
  if (active)
    throw new ApiError("CONFLICT", {
      reason: `Delegated key ${active.id} is already ACTIVE for card ${card.id} and ${account.id}; revoke it first.`,
    });
}

/**
 * `POST /auth/delegated-keys` (signed retry, conventions §5.3): the first call checks the card and the wallet
 * and answers `202 {payloadToSign, requestId, expiresAt}`; the identical request signed by an active session
 * of the wallet makes the key and answers `201` DelegatedKey, ACTIVE.
 */
export async function createKey(
  deps: Deps,
  caller: Caller,
  body: CreateDelegatedKeyBody,
  http: SignedHttp,
): Promise<SignedResponse> {
  if (body.nickname.trim() === "") throw invalidField("nickname", "must not be blank");
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const card = await cardOrThrow(tx, caller.platformId, body.cardId);
    const account = await walletAccountOrThrow(tx, caller, body.internalAccountId);
    checkCardholder(account, card);
    // The retry of a create that already settled must not be refused by the key it made.
    if (isFirstCall(http)) await checkCreatable(tx, account, card);
    return signedRetry(
      tx,
      deps,
      signedCall(caller, http, {
        accountId: account.id,
        action: "CREATE_DELEGATED_KEY",
        body,
        now,
        context: { cardId: card.id },
        allowedSigner: async (publicKey) =>
          (await activeSessionsByKey(tx, [account.id], publicKey, now)).length > 0,
        // No sandbox PROCESSING delay: the interface lists the seven endpoints that may answer it, and the
        // hosted create declares only 201 and 202.
      }),
    );
  });
}

/** `CREATE_DELEGATED_KEY`: makes the key pair, checks repeated under the wallet's lock. */
export const performCreateDelegatedKey: Performer = settlingErrors(
  async (tx, deps, request, _signer, now) => {
    const body = request.context.body as CreateDelegatedKeyBody;
    await lockAccount(tx, request.account_id);
    const account = await findWalletAccount(tx, request.platform_id, request.account_id);
    if (!account)
      throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No internal account ${request.account_id}.` });
    checkProvisioned(account);
    const card = await cardOrThrow(tx, request.platform_id, String(request.context.cardId));
    checkCardholder(account, card);
    await checkCreatable(tx, account, card);
    const id = newId("DelegatedKey");
    const secretKey = p256.utils.randomSecretKey();
    const row: store.DelegatedKeyRow = {
      id,
      platform_id: request.platform_id,
      account_id: account.id,
      card_id: card.id,
      public_key: Buffer.from(p256.getPublicKey(secretKey, true)).toString("hex"),
      private_key: await secretsOf(deps).seal("delegated-key", id, secretKey),
      nickname: body.nickname.trim(),
      status: "ACTIVE",
      created_at: now,
      updated_at: now,
    };
    secretKey.fill(0);
    await store.insertDelegatedKey(tx, row);
    return { status: 201, body: toDelegatedKey(row) };
  },
);

/**
 * `DELETE /auth/delegated-keys/{id}`: the platform credential alone (the hosted operation declares no signed
 * retry), `204`. The key becomes REVOKED and its private half is erased; revoking a revoked key changes
 * nothing and answers `204` again.
 */
export async function revokeKey(deps: Deps, caller: Caller, rawId: string): Promise<void> {
  const now = nowFor(deps, caller);
  await deps.db.transaction(async (tx) => {
    const row = await keyOrThrow(tx, caller, rawId, true);
    if (row.status !== "REVOKED") await store.revokeDelegatedKey(tx, row.id, now);
  });
}

/**
 * A card that closes (by the platform, or rejected by the issuer) takes its delegated keys with it: they are
 * revoked in the same transaction, as the hosted card close detaches the card's funding-source bindings.
 */
export async function revokeCardKeys(tx: Tx, cardId: string, now: Date): Promise<void> {
  await store.revokeKeysOfCard(tx, cardId, now);
}
