import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import { isActiveSessionKey } from "../wallet-auth/sessions.js";
import { type SignedHttp, signedCall } from "../wallet-auth/signed-calls.js";
import type { SignedRequestRow } from "../wallet-auth/signed-requests.js";
import { type SignedResponse, signedRetry } from "../wallet-auth/signed-retry.js";
import { walletAccountOrThrow } from "../wallet-auth/wallet-account.js";
import { toInternalAccount } from "./accounts.js";
import { setPrivateEnabled } from "./accounts-store.js";

export interface UpdateAccountBody {
  privateEnabled: boolean;
}

/**
 * `PATCH /internal-accounts/{id} {privateEnabled}` (conventions §2.2, §5.2): a signed retry
 * (`UPDATE_INTERNAL_ACCOUNT`, no `type` in the `202`) signed by an active session of the account, then
 * `200` InternalAccount. Only embedded wallets have `privateEnabled` (`409 WALLET_NOT_PROVISIONED`).
 */
export async function updateInternalAccount(
  deps: Deps,
  caller: Caller,
  rawAccountId: string,
  body: UpdateAccountBody,
  http: SignedHttp,
): Promise<SignedResponse> {
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const account = await walletAccountOrThrow(tx, caller, rawAccountId);
    // Not one of the seven endpoints that may answer PROCESSING (interface "Handling a still-processing
    // response"): the sandbox processing delay does not apply, the signed retry settles at once.
    return signedRetry(
      tx,
      deps,
      signedCall(caller, http, {
        accountId: account.id,
        action: "UPDATE_INTERNAL_ACCOUNT",
        body,
        now,
        allowedSigner: (key) => isActiveSessionKey(tx, [account.id], key, now),
      }),
    );
  });
}

/** `UPDATE_INTERNAL_ACCOUNT`, the signed change: the body stored at the first call is what is applied. */
export async function performAccountUpdate(
  tx: Tx,
  _deps: Deps,
  request: SignedRequestRow,
  _signer: string,
  now: Date,
): Promise<SignedResponse> {
  const { privateEnabled } = request.context.body as UpdateAccountBody;
  const row = await setPrivateEnabled(tx, request.platform_id, request.account_id, privateEnabled, now);
  if (!row) throw new Error(`signed request ${request.id} names a missing account`);
  return { status: 200, body: toInternalAccount(row) };
}
