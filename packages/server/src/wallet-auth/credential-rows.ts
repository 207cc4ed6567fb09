import { newId } from "../core/ids.js";
import type { AuthMethodRow, CredentialType } from "./store.js";

/** A new live credential row; the PASSKEY and OAUTH columns start empty and are filled by their adds. */
export function newAuthMethodRow(input: {
  platformId: string;
  accountId: string;
  type: CredentialType;
  nickname: string;
  now: Date;
}): AuthMethodRow {
  return {
    id: newId("AuthMethod"),
    platform_id: input.platformId,
    account_id: input.accountId,
    type: input.type,
    nickname: input.nickname,
    credential_id: null,
    passkey_public_key: null,
    passkey_counter: null,
    passkey_transports: null,
    oidc_issuer: null,
    oidc_audience: null,
    oidc_subject: null,
    revoked_at: null,
    created_at: input.now,
    updated_at: input.now,
  };
}
