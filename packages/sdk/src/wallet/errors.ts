import { PaysvcError } from "../core/errors.js";

/** Why the SDK refused a bundle or a key (`details.check` of a `WalletCryptoError`). */
export type WalletCryptoCheck =
  | "PRIVATE_KEY"
  | "PUBLIC_KEY"
  | "BUNDLE_FORMAT"
  | "BUNDLE_SIGNER"
  | "BUNDLE_SIGNATURE"
  | "BUNDLE_ACCOUNT"
  | "DECRYPT";

/**
 * A wallet bundle or key failed a client-side check (conventions §5.4): not what paysvc sends, signed by
 * another key than the platform's `bundleSigningPublicKey`, issued for another account, or not decryptable
 * with the given private key. Raised by the SDK, not by a response, so `status` is undefined; `code` is
 * `WALLET_CRYPTO_FAILED`. Do not use the bundle's content.
 */
export class WalletCryptoError extends PaysvcError {
  readonly check: WalletCryptoCheck;

  constructor(check: WalletCryptoCheck, reason: string, cause?: unknown) {
    super({ code: "WALLET_CRYPTO_FAILED", reason, details: { check }, cause });
    this.check = check;
  }
}
