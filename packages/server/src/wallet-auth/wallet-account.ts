import type { Executor, Tx } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { findCustomerProfile, findWalletAccount, type WalletAccountRow } from "./account-store.js";
import { type AuthMethodRow, findAuthMethod, findAuthMethodInAnyState } from "./store.js";

/** Account states in which an embedded wallet is provisioned (docs/decisions.md "Embedded wallet authentication"). */
const provisionedStatuses = new Set(["ACTIVE", "FROZEN"]);

/** `409 WALLET_NOT_PROVISIONED` unless the account is an ACTIVE or FROZEN EMBEDDED_WALLET (conventions §5.8). */
export function checkProvisioned(account: WalletAccountRow): void {
  if (account.type !== "EMBEDDED_WALLET")
    throw new ApiError("WALLET_NOT_PROVISIONED", {
      reason: `Internal account ${account.id} is ${account.type}, not an embedded wallet.`,
    });
  if (!provisionedStatuses.has(account.status))
    throw new ApiError("WALLET_NOT_PROVISIONED", {
      reason: `Embedded wallet ${account.id} is ${account.status}, not provisioned.`,
    });
}

/** The embedded wallet a call names: `404 ACCOUNT_NOT_FOUND`, then `409 WALLET_NOT_PROVISIONED`. */
export async function walletAccountOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
): Promise<WalletAccountRow> {
  const id = parseId("InternalAccount", rawId);
  const account = id ? await findWalletAccount(db, caller.platformId, id) : undefined;
  if (!account) throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No internal account ${rawId}.` });
  checkProvisioned(account);
  return account;
}

const methodNotFound = (rawId: string) =>
  new ApiError("AUTH_METHOD_NOT_FOUND", { reason: `No credential ${rawId}.` });

/** A live credential of the caller's platform; malformed, foreign, unknown or revoked → 404. */
export async function liveMethodOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
  lock = false,
): Promise<AuthMethodRow> {
  const id = parseId("AuthMethod", rawId);
  const row = id ? await findAuthMethod(db, caller.platformId, id, lock) : undefined;
  if (!row) throw methodNotFound(rawId);
  return row;
}

/** A credential in any state (the signed retry of an operation that revoked it). */
export async function methodInAnyStateOrThrow(
  db: Executor,
  caller: Caller,
  rawId: string,
): Promise<AuthMethodRow> {
  const id = parseId("AuthMethod", rawId);
  const row = id ? await findAuthMethodInAnyState(db, caller.platformId, id) : undefined;
  if (!row) throw methodNotFound(rawId);
  return row;
}

/** Serializes credential changes of one account (one-per-account limits, the last-credential rule). */
export async function lockAccount(tx: Tx, accountId: string): Promise<void> {
  await tx.query("SELECT id FROM internal_accounts WHERE id = $1 FOR UPDATE", [accountId]);
}

/** The e-mail and phone number on file for the wallet's customer. */
export async function customerContacts(
  db: Executor,
  account: WalletAccountRow,
): Promise<{ email?: string; phoneNumber?: string }> {
  if (!account.customer_id) return {};
  const profile = await findCustomerProfile(db, account.platform_id, account.customer_id);
  const email = profile?.email;
  const phoneNumber = profile?.phoneNumber;
  return {
    ...(typeof email === "string" ? { email } : {}),
    ...(typeof phoneNumber === "string" ? { phoneNumber } : {}),
  };
}
