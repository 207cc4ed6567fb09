import { NotFoundError, PaysvcError } from "../core/errors.js";
import {
  type ApiResult,
  type EmptyResult,
  path,
  type RequestOptions,
  type RequestSender,
} from "../core/request.js";
import type { Customer, UpdateCustomerBody } from "../types/customers.js";
import type { DataList, InternalAccount, PlatformConfig } from "../types/index.js";
import {
  decryptExportBundle,
  decryptSessionSigningKey,
  encryptOtpBundle,
  generateKeyPair,
  keyPairFromPrivateKey,
  oidcNonce,
  type SigningKey,
  type WalletKeyPair,
} from "./crypto.js";
import { DelegatedKeysResource } from "./delegated-keys.js";
import {
  type SignedRequest,
  type SignedRetryOptions,
  sendWalletRequest,
  signedRetry,
  untilSettled,
  WaitBudget,
} from "./signed-retry.js";
import type {
  AuthMethod,
  AuthSession,
  ChallengeCredentialBody,
  CreateCredentialBody,
  ExportedWallet,
  PasskeyAssertion,
  PasskeyAuthChallenge,
} from "./types.js";

/** `CreateCredentialBody` without `accountId` (given separately), per credential type. */
export type NewCredential = CreateCredentialBody extends infer B
  ? B extends CreateCredentialBody
    ? Omit<B, "accountId">
    : never
  : never;

/** A session and the private key that signs for it: keep both on the client for the session's 15 minutes. */
export interface WalletLogin {
  session: ApiResult<AuthSession>;
  /** The session signing key: pass it to every signed action of the account. */
  sessionKey: WalletKeyPair;
}

export interface OtpLoginInput {
  /** The embedded wallet (`InternalAccount:<uuid>`). */
  accountId: string;
  /** The OTP credential; default the account's credential of the flow's type. */
  authMethodId?: string;
  /**
   * The code, or a function called after the challenge was issued (and the code sent) that returns the code
   * the user typed. Sandbox: always `000000`.
   */
  otpCode: string | ((authMethod: AuthMethod) => string | Promise<string>);
  /**
   * A bundle already in hand (a `startOtp` answer, or an OTP registration's `otpEncryptionTargetBundle`,
   * flow 8): no challenge is issued. Default: a challenge is issued first.
   */
  otpEncryptionTargetBundle?: string;
}

export interface OAuthLoginInput {
  /** The OAUTH credential. */
  authMethodId: string;
  /**
   * Returns a fresh OIDC ID token (issued at most 60 s before the verify) whose `nonce` claim is `nonce`
   * (sha256 hex of `clientPublicKey`), e.g. from the provider's sign-in with that nonce. Called again for a
   * new token if the verify must be repeated after a `429`.
   */
  getOidcToken: (nonce: string, clientPublicKey: string) => string | Promise<string>;
}

export interface PasskeyLoginInput {
  /** The PASSKEY credential. */
  authMethodId: string;
  /**
   * Runs WebAuthn `navigator.credentials.get` with `challenge` UTF-8 encoded (exactly the hex string given)
   * as the challenge, and returns the assertion with every byte field base64url.
   */
  getAssertion: (
    challenge: string,
    details: PasskeyAuthChallenge,
  ) => PasskeyAssertion | Promise<PasskeyAssertion>;
}

/** The mnemonic of an exported embedded wallet. */
export interface ExportedMnemonic {
  /** The InternalAccount id. */
  id: string;
  /** The 24-word English BIP-39 mnemonic. Show it to the user only; never log or store it. */
  mnemonic: string;
}

function sealedSessionKey(session: AuthSession, what: string): string {
  if (typeof session.encryptedSessionSigningKey !== "string")
    throw new PaysvcError({
      code: "INVALID_RESPONSE",
      reason: `The ${what} verify answered without encryptedSessionSigningKey.`,
    });
  return session.encryptedSessionSigningKey;
}

/**
 * Embedded wallet authentication (conventions §5, interface flows 1–10): credentials, sessions, export and
 * every signed action, each flow one call. Keys are generated on the client and never sent; a session key
 * is the `WalletKeyPair` a login returns.
 *
 *     const { session, sessionKey } = await paysvc.wallet.loginWithEmailOtp({ accountId, otpCode: "000000" });
 *     await paysvc.wallet.addCredential(accountId, { type: "SMS_OTP" }, sessionKey);
 */
export class WalletResource {
  readonly #sender: RequestSender;
  #bundleSigningPublicKey: Promise<string> | undefined;
  /** Delegated keys of embedded wallets for card spending (`/auth/delegated-keys`). */
  readonly delegatedKeys: DelegatedKeysResource;

  constructor(sender: RequestSender) {
    this.#sender = sender;
    this.delegatedKeys = new DelegatedKeysResource(sender);
  }

  /**
   * Runs any signed action through the signed-retry pattern (see `SignedRetryOptions`): `202` → stamp with
   * `key` → identical retry; PROCESSING → identical re-sends with backoff; `429` → `Retry-After`; an expired
   * challenge → a fresh operation. E.g. `signedRetry({ method: "PATCH", path: "/customers/Customer:…", body }, sessionKey)`.
   */
  signedRetry<T extends object = Record<string, unknown>>(
    request: SignedRequest,
    key: SigningKey,
    options: SignedRetryOptions = {},
  ): Promise<ApiResult<T>> {
    return signedRetry<T>(this.#sender, request, key, options);
  }

  /** The platform's `bundleSigningPublicKey` (`GET /config`), read once per client: it signs every bundle. */
  async bundleSigningPublicKey(options?: RequestOptions): Promise<string> {
    this.#bundleSigningPublicKey ??= this.#sender
      .send<PlatformConfig>("GET", "/config", { options })
      .then((config) => config.bundleSigningPublicKey);
    try {
      return await this.#bundleSigningPublicKey;
    } catch (error) {
      this.#bundleSigningPublicKey = undefined;
      throw error;
    }
  }

  // ── credentials ──────────────────────────────────────────────────────────────────────────────────────

  /** `GET /auth/credentials?accountId=`: the account's live credentials (not paginated). */
  async listCredentials(
    accountId: string,
    options?: RequestOptions,
  ): Promise<ApiResult<DataList<AuthMethod>>> {
    return this.#sender.send("GET", "/auth/credentials", { query: { accountId }, options });
  }

  /**
   * Adds a credential, signed by an active session of the account (flows 3, 5, 10): `PASSKEY` with the
   * attestation of your backend's registration challenge, `OAUTH` with a fresh ID token, or an OTP type
   * (`EMAIL_OTP` only to add it back after it was removed). OTP answers carry `otpEncryptionTargetBundle`
   * for the first login (flow 8). Limits: `BadRequestError` `…_ALREADY_EXISTS`, `ConflictError`.
   */
  async addCredential(
    accountId: string,
    body: NewCredential,
    sessionKey: SigningKey,
    options: SignedRetryOptions = {},
  ): Promise<ApiResult<AuthMethod>> {
    const request = { method: "POST", path: "/auth/credentials", body: { ...body, accountId } } as const;
    return signedRetry<AuthMethod>(this.#sender, request, sessionKey, options);
  }

  /**
   * Revokes a credential and every session it issued (flow 9). The key must be a session of *another*
   * credential of the account; the account's last credential is `BadRequestError` `INVALID_INPUT`.
   */
  async revokeCredential(
    authMethodId: string,
    sessionKey: SigningKey,
    options: SignedRetryOptions = {},
  ): Promise<EmptyResult> {
    const request = { method: "DELETE", path: path`/auth/credentials/${authMethodId}` } as const;
    return signedRetry(this.#sender, request, sessionKey, options);
  }

  /**
   * `POST /auth/credentials/{id}/challenge`: OTP credentials get a new code (sent by e-mail or SMS) and a
   * new `otpEncryptionTargetBundle` (flow 7: resending an OTP); PASSKEY needs `clientPublicKey`. A `429`
   * (more than 5 issues in 15 minutes) is waited out for its `Retry-After` within the options' budget.
   */
  async challenge(
    authMethodId: string,
    body?: ChallengeCredentialBody,
    options: SignedRetryOptions = {},
  ): Promise<ApiResult<AuthMethod | PasskeyAuthChallenge>> {
    return this.#challenge(authMethodId, body, options, new WaitBudget(options));
  }

  #challenge<T extends AuthMethod>(
    authMethodId: string,
    body: ChallengeCredentialBody | undefined,
    options: SignedRetryOptions,
    budget: WaitBudget,
  ): Promise<ApiResult<T>> {
    // Not a signed-retry endpoint: it takes an Idempotency-Key, a fresh one per attempt.
    return budget.run(() =>
      this.#sender.send<T>("POST", path`/auth/credentials/${authMethodId}/challenge`, {
        ...(body === undefined ? {} : { body }),
        options: options.requestOptions,
      }),
    );
  }

  /** A PASSKEY challenge bound to `clientPublicKey` (flow 4's first step); `loginWithPasskey` runs the whole flow. */
  async passkeyChallenge(
    authMethodId: string,
    clientPublicKey: string,
    options: SignedRetryOptions = {},
  ): Promise<ApiResult<PasskeyAuthChallenge>> {
    return this.#challenge(authMethodId, { clientPublicKey }, options, new WaitBudget(options));
  }

  // ── logins ───────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Issues an OTP challenge (the code is e-mailed or texted) and returns the credential with its
   * `otpEncryptionTargetBundle`; pass the bundle and the code the user typed to `loginWithEmailOtp`.
   */
  async startOtp(
    input: { accountId: string; authMethodId?: string; type?: "EMAIL_OTP" | "SMS_OTP" },
    options: SignedRetryOptions = {},
  ): Promise<ApiResult<AuthMethod>> {
    const id = input.authMethodId ?? (await this.#credentialOf(input.accountId, input.type ?? "EMAIL_OTP"));
    return this.#challenge<AuthMethod>(id, undefined, options, new WaitBudget(options));
  }

  /**
   * Flow 1, EMAIL_OTP login: challenge (unless a bundle is given) → a fresh key pair (the TEK) → the code
   * and the TEK's public key HPKE-encrypted to the bundle (its signature checked with the platform's
   * `bundleSigningPublicKey`) → verify `202` → the identical verify stamped by the TEK → the session. The
   * TEK is the session key. A wrong code is `AuthenticationError` `UNAUTHORIZED`; an expired verify
   * challenge is not restarted (the code is used up): log in again.
   */
  async loginWithEmailOtp(input: OtpLoginInput, options: SignedRetryOptions = {}): Promise<WalletLogin> {
    return this.#loginWithOtp("EMAIL_OTP", input, options);
  }

  /** Flow 1 for an `SMS_OTP` credential (the code is texted to the customer's phone). */
  async loginWithSmsOtp(input: OtpLoginInput, options: SignedRetryOptions = {}): Promise<WalletLogin> {
    return this.#loginWithOtp("SMS_OTP", input, options);
  }

  async #loginWithOtp(
    type: "EMAIL_OTP" | "SMS_OTP",
    input: OtpLoginInput,
    options: SignedRetryOptions,
  ): Promise<WalletLogin> {
    const budget = new WaitBudget(options);
    const authMethodId = input.authMethodId ?? (await this.#credentialOf(input.accountId, type));
    let bundle = input.otpEncryptionTargetBundle;
    let code = input.otpCode;
    if (bundle === undefined || typeof code === "function") {
      const challenged =
        bundle === undefined
          ? await this.#challenge<AuthMethod>(authMethodId, undefined, options, budget)
          : undefined;
      bundle ??= challenged?.otpEncryptionTargetBundle;
      if (typeof code === "function") {
        const method = challenged ?? (await this.#credential(input.accountId, authMethodId));
        code = await code(method);
      }
    }
    if (typeof bundle !== "string")
      throw new PaysvcError({
        code: "INVALID_RESPONSE",
        reason: `The challenge of ${authMethodId} answered without otpEncryptionTargetBundle.`,
      });
    const tek = generateKeyPair();
    const encryptedOtpBundle = await encryptOtpBundle({
      otpCode: code,
      otpEncryptionTargetBundle: bundle,
      clientPublicKey: tek.publicKey,
      bundleSigningPublicKey: await this.bundleSigningPublicKey(options.requestOptions),
      accountId: input.accountId,
      authMethodId,
    });
    const request = {
      method: "POST",
      path: path`/auth/credentials/${authMethodId}/verify`,
      body: { type, encryptedOtpBundle },
    } as const;
    // A fresh operation would need a fresh code: the verify's first call used this one up.
    const session = await signedRetry<AuthSession>(
      this.#sender,
      request,
      tek,
      { ...options, maxOperations: 1 },
      budget,
    );
    return { session, sessionKey: tek };
  }

  /**
   * Flow 2, OAUTH login: a fresh key pair, a fresh ID token whose `nonce` is sha256 hex of its public key,
   * verify → `encryptedSessionSigningKey` decrypted with the key pair's private key. Also flows 6 and 8.
   */
  async loginWithOAuth(input: OAuthLoginInput, options: SignedRetryOptions = {}): Promise<WalletLogin> {
    const budget = new WaitBudget(options);
    const client = generateKeyPair();
    const nonce = oidcNonce(client.publicKey);
    const session = await budget.run(async () => {
      const oidcToken = await input.getOidcToken(nonce, client.publicKey);
      if (typeof oidcToken !== "string" || oidcToken === "")
        throw new TypeError("getOidcToken must return the ID token as a non-empty string.");
      return this.#verifyForSealedKey(
        {
          method: "POST",
          path: path`/auth/credentials/${input.authMethodId}/verify`,
          body: { type: "OAUTH", oidcToken, clientPublicKey: client.publicKey },
        },
        undefined,
        options,
        budget,
      );
    });
    return this.#unsealed(session, client, "OAUTH");
  }

  /**
   * Flow 4, PASSKEY login (first and every later one): a fresh key pair, a challenge bound to its public
   * key, `getAssertion` (WebAuthn get) over the challenge, verify with `Request-Id` →
   * `encryptedSessionSigningKey` decrypted with the key pair's private key.
   */
  async loginWithPasskey(input: PasskeyLoginInput, options: SignedRetryOptions = {}): Promise<WalletLogin> {
    const budget = new WaitBudget(options);
    const client = generateKeyPair();
    const challenge = await this.#challenge<PasskeyAuthChallenge>(
      input.authMethodId,
      { clientPublicKey: client.publicKey },
      options,
      budget,
    );
    const assertion = await input.getAssertion(challenge.challenge, challenge);
    const session = await budget.run(() =>
      this.#verifyForSealedKey(
        {
          method: "POST",
          path: path`/auth/credentials/${input.authMethodId}/verify`,
          body: { type: "PASSKEY", assertion },
        },
        { "request-id": challenge.requestId },
        options,
        budget,
      ),
    );
    return this.#unsealed(session, client, "PASSKEY");
  }

  async #verifyForSealedKey(
    request: SignedRequest,
    headers: Record<string, string> | undefined,
    options: SignedRetryOptions,
    budget: WaitBudget,
  ): Promise<ApiResult<AuthSession>> {
    const first = await sendWalletRequest<AuthSession>(this.#sender, request, headers, options);
    return untilSettled<AuthSession>(this.#sender, request, headers, first, options, budget);
  }

  async #unsealed(
    session: ApiResult<AuthSession>,
    client: WalletKeyPair,
    what: string,
  ): Promise<WalletLogin> {
    const privateKey = await decryptSessionSigningKey(sealedSessionKey(session, what), client.privateKey);
    return { session, sessionKey: keyPairFromPrivateKey(privateKey) };
  }

  // ── sessions ─────────────────────────────────────────────────────────────────────────────────────────

  /** `GET /auth/sessions?accountId=`: the account's active sessions, never key material (not paginated). */
  async listSessions(accountId: string, options?: RequestOptions): Promise<ApiResult<DataList<AuthSession>>> {
    return this.#sender.send("GET", "/auth/sessions", { query: { accountId }, options });
  }

  /**
   * Refreshes a session, signed by that session's key: a new key pair is generated, the new session (a new
   * `id`, 15 more minutes) is keyed by it, and the old session is revoked.
   */
  async refreshSession(
    sessionId: string,
    sessionKey: SigningKey,
    options: SignedRetryOptions = {},
  ): Promise<WalletLogin> {
    const next = generateKeyPair();
    const request = {
      method: "POST",
      path: path`/auth/sessions/${sessionId}/refresh`,
      body: { clientPublicKey: next.publicKey },
    } as const;
    const session = await signedRetry<AuthSession>(this.#sender, request, sessionKey, options);
    return { session, sessionKey: next };
  }

  /** Revokes a session; any active session of the account may sign, this one included. */
  async revokeSession(
    sessionId: string,
    sessionKey: SigningKey,
    options: SignedRetryOptions = {},
  ): Promise<EmptyResult> {
    const request = { method: "DELETE", path: path`/auth/sessions/${sessionId}` } as const;
    return signedRetry(this.#sender, request, sessionKey, options);
  }

  // ── account actions ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Exports the wallet's mnemonic, signed by an active session: a fresh key pair for this export, the
   * signed retry, then `encryptedWalletCredentials` checked (signature by the platform's
   * `bundleSigningPublicKey`, `organizationId` = the account) and decrypted. Nothing is stored by the
   * service; if the challenge expires a fresh export starts.
   */
  async exportWallet(
    accountId: string,
    sessionKey: SigningKey,
    options: SignedRetryOptions = {},
  ): Promise<ApiResult<ExportedMnemonic>> {
    const client = generateKeyPair();
    const request = {
      method: "POST",
      path: path`/internal-accounts/${accountId}/export`,
      body: { clientPublicKey: client.publicKeyUncompressed },
    } as const;
    const exported = await signedRetry<ExportedWallet>(this.#sender, request, sessionKey, options);
    const mnemonic = await decryptExportBundle(exported.encryptedWalletCredentials, {
      clientPrivateKey: client.privateKey,
      accountId,
      bundleSigningPublicKey: await this.bundleSigningPublicKey(options.requestOptions),
    });
    const result = { id: exported.id, mnemonic };
    Object.defineProperty(result, "lastResponse", { value: exported.lastResponse, enumerable: false });
    return result as ApiResult<ExportedMnemonic>;
  }

  /** `PATCH /internal-accounts/{id} {privateEnabled}`, signed by an active session of the account. */
  async setPrivateEnabled(
    accountId: string,
    privateEnabled: boolean,
    sessionKey: SigningKey,
    options: SignedRetryOptions = {},
  ): Promise<ApiResult<InternalAccount>> {
    const request = {
      method: "PATCH",
      path: path`/internal-accounts/${accountId}`,
      body: { privateEnabled },
    } as const;
    return signedRetry<InternalAccount>(this.#sender, request, sessionKey, options);
  }

  /**
   * `PATCH /customers/{customerId}`, signed by a session of one of the customer's embedded wallets when
   * the change touches an e-mail or phone tied to an OTP credential (the credentials follow it); any
   * other change completes on the first call.
   */
  async updateCustomer(
    customerId: string,
    body: UpdateCustomerBody,
    sessionKey: SigningKey,
    options: SignedRetryOptions = {},
  ): Promise<ApiResult<Customer>> {
    const request = { method: "PATCH", path: path`/customers/${customerId}`, body } as const;
    return signedRetry<Customer>(this.#sender, request, sessionKey, options);
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────────────────

  async #credential(accountId: string, authMethodId: string): Promise<AuthMethod> {
    const list = await this.listCredentials(accountId);
    const found = list.data.find((method) => method.id === authMethodId);
    if (!found)
      throw new NotFoundError({
        code: "AUTH_METHOD_NOT_FOUND",
        reason: `Account ${accountId} has no live credential ${authMethodId}.`,
      });
    return found;
  }

  async #credentialOf(accountId: string, type: AuthMethod["type"]): Promise<string> {
    const list = await this.listCredentials(accountId);
    const found = list.data.find((method) => method.type === type);
    if (!found)
      throw new NotFoundError({
        code: "AUTH_METHOD_NOT_FOUND",
        reason: `Account ${accountId} has no ${type} credential.`,
      });
    return found.id;
  }
}
