import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import { toInternalAccount } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { isActiveSessionKey } from "./export.js";
import { type SignedHttp, signedCall } from "./signed-calls.js";
import type { SignedRequestRow } from "./signed-requests.js";
import { registerPerformer, type SignedResponse, signedRetry } from "./signed-retry.js";
import { walletAccountOrThrow } from "./wallet-account.js";

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

/** The signed change: the body stored at the first call is what is applied. */
async function performUpdate(
  tx: Tx,
  _deps: Deps,
  request: SignedRequestRow,
  _signer: string,
  now: Date,
): Promise<SignedResponse> {
  const { privateEnabled } = request.context.body as UpdateAccountBody;
  // internal_accounts has no store function for this column; the one write lives with its operation.
  const [row] = await tx.query<InternalAccountRow>(
    `UPDATE internal_accounts SET private_enabled = $3, updated_at = $4
     WHERE platform_id = $1 AND id = $2 RETURNING *`,
    [request.platform_id, request.account_id, privateEnabled, now],
  );
  if (!row) throw new Error(`signed request ${request.id} names a missing account`);
  return { status: 200, body: toInternalAccount(row) };
}

registerPerformer("UPDATE_INTERNAL_ACCOUNT", performUpdate);
