import type { Environment } from "../core/http/context.js";
import type { WalletAuthConfig } from "../platform/wallet-auth-config.js";

/** Where a platform's passkeys live: the RP ID their authenticator data names and the origins allowed. */
export interface RelyingParty {
  rpId: string;
  allowsOrigin(origin: string): boolean;
}

/** Sandbox default without `walletAuthConfig.passkey`: RP ID `localhost`, any `http(s)://localhost[:port]`. */
export const SANDBOX_PASSKEY_RP_ID = "localhost";
const sandboxOrigin = /^https?:\/\/localhost(:[0-9]{1,5})?$/;

/**
 * The platform's relying party (conventions §5.6): its configured one; for a sandbox platform without one,
 * localhost on any port (what a developer's browser calls from a local page); none for a production platform
 * without one, which therefore cannot register or use passkeys.
 */
export function relyingParty(environment: Environment, config: WalletAuthConfig): RelyingParty | undefined {
  if (config.passkey) {
    const origins = new Set(config.passkey.origins);
    return { rpId: config.passkey.rpId, allowsOrigin: (origin) => origins.has(origin) };
  }
  if (environment === "SANDBOX")
    return { rpId: SANDBOX_PASSKEY_RP_ID, allowsOrigin: (origin) => sandboxOrigin.test(origin) };
  return undefined;
}
