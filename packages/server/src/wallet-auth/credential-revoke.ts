import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { walletProcessingDelayMs } from "./auth-config.js";
import { voidOtpChallenges } from "./otp-store.js";
import { isFirstCall, type SignedHttp, settlingErrors, signedCall } from "./signed-calls.js";
import { type Performer, type SignedResponse, signedRetry } from "./signed-retry.js";
import {
  type AuthMethodRow,
  activeSessionsByKey,
  findAuthMethod,
  listAuthMethods,
  revokeAuthMethod,
} from "./store.js";
import {
  liveMethodOrThrow,
  lockAccount,
  methodInAnyStateOrThrow,
  walletAccountOrThrow,
} from "./wallet-account.js";

/**
 * `DELETE /auth/credentials/{id}` (conventions §5.2, flow 9): signed by a session another credential of
 * the account issued; `400` for the account's last credential; the credential's sessions end with it.
 */
export async function revokeCredential(
  deps: Deps,
  caller: Caller,
  rawId: string,
  http: SignedHttp,
): Promise<SignedResponse> {
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const first = isFirstCall(http);
    // The retry of a revocation that already settled must still find the (now revoked) credential.
    const method = first
      ? await liveMethodOrThrow(tx, caller, rawId)
      : await methodInAnyStateOrThrow(tx, caller, rawId);
    const account = await walletAccountOrThrow(tx, caller, method.account_id);
    if (first) await checkNotLast(tx, method);
    return signedRetry(
      tx,
      deps,
      signedCall(caller, http, {
        accountId: account.id,
        action: "REVOKE_CREDENTIAL",
        type: method.type,
        body: undefined,
        now,
        context: { authMethodId: method.id },
        allowedSigner: async (publicKey) =>
          (await activeSessionsByKey(tx, [account.id], publicKey, now)).some(
            (s) => s.auth_method_id !== method.id,
          ),
        processingDelayMs: await walletProcessingDelayMs(tx, caller.platformId),
      }),
    );
  });
}

async function checkNotLast(tx: Tx, method: AuthMethodRow): Promise<void> {
  const live = await listAuthMethods(tx, method.account_id);
  if (live.filter((m) => m.id !== method.id).length === 0)
    throw invalidField("id", `${method.id} is the account's only credential; add another before revoking it`);
}

/** `REVOKE_CREDENTIAL`: revokes the credential unless it is the account's last, and voids its OTP challenges. */
export const performRevokeCredential: Performer = settlingErrors(async (tx, _deps, request, _signer, now) => {
  await lockAccount(tx, request.account_id);
  const id = String(request.context.authMethodId);
  const method = await findAuthMethod(tx, request.platform_id, id, true);
  if (!method) throw new ApiError("AUTH_METHOD_NOT_FOUND", { reason: `No credential ${id}.` });
  await checkNotLast(tx, method);
  await revokeAuthMethod(tx, method.id, now);
  await voidOtpChallenges(tx, method.id);
  return { status: 204, body: null };
});
