import type { Executor } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import { walletPayloadToSign } from "../quotes/embedded-wallet.js";
import type * as quotes from "../quotes/store.js";
import { isActiveSessionKey } from "../wallet-auth/sessions.js";
import { parseStamp, stampVerifies } from "../wallet-auth/stamp.js";

const invalid = (why: string) =>
  new ApiError("WALLET_SIGNATURE_INVALID", { reason: `The quote's execution is refused: ${why}.` });

/**
 * The off-ramp's authorization (conventions §3.3): executing a quote whose source is an EMBEDDED_WALLET
 * needs `Service-Wallet-Signature`, the stamp (§5.3, wallet-auth/stamp.ts) of the quote's
 * `paymentInstructions[].accountOrWalletInfo.payloadToSign` by an active session key of that wallet. No
 * `Request-Id`: the payload already names this quote and is good for its lifetime. Absent (or empty) →
 * `401 WALLET_SIGNATURE_MISSING`; not a stamp → `WALLET_SIGNATURE_MALFORMED`; a signature that does not
 * verify over this payload, or a key that is not an active session of the wallet →
 * `WALLET_SIGNATURE_INVALID`. Other quotes need nothing and any header is ignored.
 */
export async function requireWalletSignature(
  db: Executor,
  quote: quotes.QuoteRow,
  signatureHeader: string | undefined,
  now: Date,
): Promise<void> {
  const payload = walletPayloadToSign(quote);
  if (payload === undefined) return;
  if (signatureHeader === undefined || signatureHeader === "")
    throw new ApiError("WALLET_SIGNATURE_MISSING", {
      reason:
        "Executing a quote from an EMBEDDED_WALLET needs the Service-Wallet-Signature header: the stamp of its paymentInstructions[].accountOrWalletInfo.payloadToSign.",
    });
  const stamp = parseStamp(signatureHeader);
  if (!stampVerifies(stamp, payload))
    throw invalid("the signature does not verify over the quote's payloadToSign");
  if (!(await isActiveSessionKey(db, [quote.source_account_id as string], stamp.publicKey, now)))
    throw invalid("the signing key is not an active session of the source wallet");
}
