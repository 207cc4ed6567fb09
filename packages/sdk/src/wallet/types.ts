// Embedded wallet authentication wire types (conventions §5.1, §5.2), written out so the SDK does not depend
// on the server; `test/types-match-server.test.ts` checks each against the server's TypeBox schema.

/** Credential types (interface "Embedded wallet credentials and sessions"). */
export type CredentialType = "PASSKEY" | "OAUTH" | "EMAIL_OTP" | "SMS_OTP";

/** AuthMethod: one credential of an embedded wallet (conventions §5.1). */
export interface AuthMethod {
  /** `AuthMethod:<uuid>`. */
  id: string;
  /** `InternalAccount:<uuid>` of the embedded wallet. */
  accountId: string;
  type: CredentialType;
  /** EMAIL_OTP: the e-mail; SMS_OTP: the E.164 phone; OAUTH: the token's `email` claim; PASSKEY: the user's pick. */
  nickname: string;
  /** PASSKEY only: the WebAuthn credential id, base64url. */
  credentialId?: string;
  /** OTP challenge and OTP registration responses: the JSON text the code is encrypted to (conventions §5.4). */
  otpEncryptionTargetBundle?: string;
  createdAt: string;
  updatedAt: string;
}

/** The body of every `202` of a signed-retry endpoint (conventions §5.1, §5.3). */
export interface SignedRetryChallenge {
  /** The credential added, revoked or verified, or the one that issued the session; absent on refresh, export and PATCH. */
  type?: CredentialType;
  /** Stamp it byte for byte; never parse it. */
  payloadToSign: string;
  /** `Request:<uuid>`, single use: sent back as the `Request-Id` header. */
  requestId: string;
  /** Issue + 5 minutes. */
  expiresAt: string;
}

/** A `200` meaning the operation is still settling: re-send the identical signed request. */
export interface WalletOperationProcessing {
  status: "PROCESSING";
  message: string;
}

/** AuthSession (conventions §5.1): lasts 15 minutes from creation. */
export interface AuthSession {
  /** `Session:<uuid>`. */
  id: string;
  accountId: string;
  /** The type of the credential that issued the session. */
  type: CredentialType;
  nickname: string;
  /** OAUTH and PASSKEY verifies only: the session private key sealed to the client key (conventions §5.4). */
  encryptedSessionSigningKey?: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

/** WebAuthn transports a registration may report. */
export type PasskeyTransport = "usb" | "nfc" | "ble" | "internal" | "hybrid";

/** `navigator.credentials.create` output, every byte field base64url (conventions §5.2). */
export interface PasskeyAttestation {
  credentialId: string;
  /** The WebAuthn `clientDataJSON` bytes (spelled `Json` on the wire). */
  clientDataJson: string;
  attestationObject: string;
  transports?: PasskeyTransport[];
}

/** `navigator.credentials.get` output, every byte field base64url (conventions §5.2). */
export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

/** `POST /auth/credentials` (conventions §5.2): by `type`. */
export type CreateCredentialBody =
  | { type: "EMAIL_OTP"; accountId: string }
  | { type: "SMS_OTP"; accountId: string }
  | { type: "OAUTH"; accountId: string; oidcToken: string }
  | {
      type: "PASSKEY";
      accountId: string;
      /** 1–100 characters: letters, digits, space and `. _ - ' ( )`. */
      nickname: string;
      /** The WebAuthn registration challenge your backend issued (base64url). */
      challenge: string;
      attestation: PasskeyAttestation;
    };

/** `POST /auth/credentials/{id}/challenge`: optional body; `clientPublicKey` is required for PASSKEY only. */
export interface ChallengeCredentialBody {
  clientPublicKey?: string;
}

/** `POST /auth/credentials/{id}/verify` (conventions §5.2): by `type`. */
export type VerifyCredentialBody =
  | { type: "EMAIL_OTP" | "SMS_OTP"; encryptedOtpBundle: string }
  | { type: "OAUTH"; oidcToken: string; clientPublicKey: string }
  | { type: "PASSKEY"; assertion: PasskeyAssertion };

/** PasskeyAuthChallenge (conventions §5.1, §5.6): the AuthMethod plus the challenge bound to the client key. */
export interface PasskeyAuthChallenge extends AuthMethod {
  /** Lowercase hex; WebAuthn `get` takes its UTF-8 bytes, exactly as returned. */
  challenge: string;
  /** Sent as the `Request-Id` header of the verify. */
  requestId: string;
  expiresAt: string;
}

/** `POST /auth/sessions/{id}/refresh`: the new session's compressed public key. */
export interface RefreshSessionBody {
  clientPublicKey: string;
}

/** `POST /internal-accounts/{id}/export`: a fresh uncompressed (`04…`) public key per export. */
export interface ExportWalletBody {
  clientPublicKey: string;
}

/** The terminal `200` of an export: the 24-word mnemonic sealed to `clientPublicKey` (conventions §5.4). */
export interface ExportedWallet {
  /** The InternalAccount id. */
  id: string;
  encryptedWalletCredentials: string;
}

/** `PATCH /internal-accounts/{id}` (conventions §2.2): embedded wallets only. */
export interface UpdateInternalAccountBody {
  privateEnabled: boolean;
}

/** DelegatedKey status (the hosted DelegatedKeyStatus); paysvc answers ACTIVE or REVOKED. */
export type DelegatedKeyStatus = "PENDING" | "ACTIVE" | "REVOKED";

/**
 * DelegatedKey (issue 21 §6): a P-256 key paysvc holds, authorized by the wallet's owner to sign card
 * spending from the embedded wallet for one card. Only the public half is ever returned.
 */
export interface DelegatedKey {
  /** `DelegatedKey:<uuid>`. */
  id: string;
  /** `Card:<uuid>`. */
  cardId: string;
  /** The card funding source the key signs for: in paysvc the embedded wallet's InternalAccount id. */
  fundingSourceId: string;
  /** `InternalAccount:<uuid>` of the embedded wallet. */
  accountId: string;
  /** Compressed P-256 public key, lowercase hex. */
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  createdAt: string;
  updatedAt: string;
}

/** `POST /auth/delegated-keys` (the hosted DelegatedKeyCreateRequest). */
export interface CreateDelegatedKeyBody {
  /** `Card:<uuid>`, not CLOSED. */
  cardId: string;
  /** The cardholder's embedded wallet. */
  internalAccountId: string;
  /** 1–256 characters, not blank. */
  nickname: string;
}

/** `GET /auth/delegated-keys` filters; both name the embedded wallet. */
export interface DelegatedKeyListParams {
  accountId?: string;
  fundingSourceId?: string;
}
