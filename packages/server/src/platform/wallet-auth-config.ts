import { type Static, Type } from "typebox";

// The embedded-wallet part of the platform's configuration (`platforms.wallet_auth_config`,
// docs/decisions.md "Embedded wallet authentication"): where passkeys may be used (conventions §5.6) and
// which OIDC providers production platforms accept (conventions §5.7). The shapes live with the
// platform's other schemas; the rules beyond them and their reads are wallet-auth's (wallet-auth/auth-config.ts).

/** A DNS name: what WebAuthn accepts as an RP ID (no scheme, port, path or IP literal check beyond this). */
const hostnamePattern =
  "^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$";

/** The WebAuthn relying party: assertions must name `rpId` and come from one of `origins` exactly. */
export const PasskeyConfig = Type.Object(
  {
    rpId: Type.String({ minLength: 1, maxLength: 253, pattern: hostnamePattern }),
    /** `https://host[:port]` (host = rpId or a subdomain of it), `http://localhost[:port]`, or `android:apk-key-hash:…`. */
    origins: Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
      minItems: 1,
      maxItems: 20,
      uniqueItems: true,
    }),
  },
  { additionalProperties: false },
);
export type PasskeyConfig = Static<typeof PasskeyConfig>;

/** An OIDC provider whose ID tokens OAUTH credentials accept: exact `iss`, allowed `aud`, its key set. */
export const OidcProviderConfig = Type.Object(
  {
    issuer: Type.String({ minLength: 1, maxLength: 512 }),
    audiences: Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
      minItems: 1,
      maxItems: 20,
      uniqueItems: true,
    }),
    /**
     * https (or http on a loopback host), at an address the platform may reach: a public one, for
     * production platforms (docs/decisions.md "Security (issue 16)"); optional for Google and Apple.
     */
    jwksUri: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  },
  { additionalProperties: false },
);
export type OidcProviderConfig = Static<typeof OidcProviderConfig>;

/** The passkey and OIDC part of `walletAuthConfig` (`GET /config`, `PATCH /config`: each given key replaces the stored one). */
export const WalletAuthConfig = Type.Object(
  {
    passkey: Type.Optional(PasskeyConfig),
    oidcProviders: Type.Optional(Type.Array(OidcProviderConfig, { maxItems: 20 })),
  },
  { additionalProperties: false },
);
export type WalletAuthConfig = Static<typeof WalletAuthConfig>;
