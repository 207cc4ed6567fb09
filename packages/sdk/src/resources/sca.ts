import {
  type ApiResult,
  type EmptyResult,
  path,
  type RequestOptions,
  type RequestSender,
} from "../core/request.js";
import type {
  BeneficiaryTrustConfirm,
  BeneficiaryTrustConfirmRequest,
  BeneficiaryTrustStart,
  ContactVerificationConfirmBody,
  Customer,
  Quote,
  RecordSecurityEventRequest,
  RecordSecurityEventResponse,
  ScaAnswer,
  ScaAuthorization,
  ScaFactor,
  ScaFactorConfirmRequest,
  ScaFactorConfirmResponse,
  ScaFactorEnrollRequest,
  ScaFactorEnrollStart,
  ScaFactorList,
  ScaLoginComplete,
  ScaLoginCompleteRequest,
  ScaLoginStart,
  ScaLoginStartRequest,
  TwoFactorResetCompleteRequest,
  TwoFactorResetStart,
  TwoFactorResetStartRequest,
  TwoFactorResetStatus,
} from "../types/index.js";

/** How `sca.login` answers the challenge: an SMS_OTP code, or a function of the login start (a passkey assertion). */
export type ScaAnswerSource = string | ((start: ScaLoginStart) => ScaAnswer | Promise<ScaAnswer>);

/** `sca.login` options: the request options, plus the factor (default SMS_OTP, or PASSKEY). */
export interface ScaLoginOptions extends RequestOptions {
  factor?: ScaFactor;
}

/** Derives one key per step from the caller's, so a replayed `login` replays both of its calls. */
function stepOptions(options: RequestOptions, step: string): RequestOptions {
  return options.idempotencyKey === undefined
    ? options
    : { ...options, idempotencyKey: `${options.idempotencyKey}:${step}`.slice(0, 255) };
}

/**
 * Strong customer authentication for customers in the EEA and the UK, in the hosted API's operations
 * (docs/guides/strong-customer-authentication.md): factors, login sessions (180 days), security events,
 * quote authorization, contact verification and trusted beneficiaries. Writes for such a customer without
 * a live session are `ConflictError` `SCA_SESSION_REQUIRED`: call `login` and retry. A customer outside
 * those regions is `ConflictError` `CONFLICT`; too many wrong answers lock the customer (`PaysvcError`
 * status 423 `ACCOUNT_LOCKED`).
 */
export class ScaResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `GET /sca/factors?customerId=` (`listScaFactors`): SMS_OTP when a contact is on file, the passkey once enrolled. */
  async listFactors(customerId: string, options?: RequestOptions): Promise<ApiResult<ScaFactorList>> {
    return this.#sender.send("GET", "/sca/factors", { query: { customerId }, options });
  }

  /**
   * `POST /sca/factors?customerId=` (`startScaFactorEnrollment`) under a live session: `{type: "TOTP"}` → a new
   * secret and its `otpauth://` URI; `{type: "PASSKEY"}` → WebAuthn creation options for the customer's one
   * passkey (`ConflictError` `PASSKEY_ALREADY_ENROLLED` when it has one).
   */
  async startFactorEnrollment(
    customerId: string,
    body: ScaFactorEnrollRequest,
    options?: RequestOptions,
  ): Promise<ApiResult<ScaFactorEnrollStart>> {
    return this.#sender.send("POST", "/sca/factors", { query: { customerId }, body, options });
  }

  /**
   * `POST /sca/factors/confirm?customerId=` (`confirmScaFactorEnrollment`): TOTP `{secret, code}` → recovery
   * codes; PASSKEY `{origin, credential}` (the registration response) → the factor.
   */
  async confirmFactorEnrollment(
    customerId: string,
    body: ScaFactorConfirmRequest,
    options?: RequestOptions,
  ): Promise<ApiResult<ScaFactorConfirmResponse>> {
    return this.#sender.send("POST", "/sca/factors/confirm", { query: { customerId }, body, options });
  }

  /**
   * `POST /sca/factors/reset?customerId=` (`startTwoFactorReset`) → `201`: for a customer who lost a factor (no
   * session needed). Send the person to `verificationLink`; a start within 30 s of the last is `429`.
   */
  async startFactorReset(
    customerId: string,
    body: TwoFactorResetStartRequest,
    options?: RequestOptions,
  ): Promise<ApiResult<TwoFactorResetStart>> {
    return this.#sender.send("POST", "/sca/factors/reset", { query: { customerId }, body, options });
  }

  /** `GET /sca/factors/reset/{resetId}?customerId=` (`getTwoFactorResetStatus`). */
  async getFactorReset(
    customerId: string,
    resetId: string,
    options?: RequestOptions,
  ): Promise<ApiResult<TwoFactorResetStatus>> {
    return this.#sender.send("GET", path`/sca/factors/reset/${resetId}`, { query: { customerId }, options });
  }

  /**
   * `POST /sca/factors/reset/{resetId}/complete?customerId=` (`completeTwoFactorReset`) → `204` once the
   * identity check passed: the factor is removed and the customer's SCA sessions end.
   */
  async completeFactorReset(
    customerId: string,
    resetId: string,
    body?: TwoFactorResetCompleteRequest,
    options?: RequestOptions,
  ): Promise<EmptyResult> {
    return this.#sender.send("POST", path`/sca/factors/reset/${resetId}/complete`, {
      query: { customerId },
      body: body ?? {},
      options,
    });
  }

  /** `DELETE /sca/factors/{credentialId}?customerId=` (`deleteScaFactor`) → `204`, under a live session. */
  async deleteFactor(
    customerId: string,
    credentialId: string,
    options?: RequestOptions,
  ): Promise<EmptyResult> {
    return this.#sender.send("DELETE", path`/sca/factors/${credentialId}`, {
      query: { customerId },
      options,
    });
  }

  /** `POST /sca/login/start?customerId=` (`startScaLogin`): sends a code (SMS_OTP) or returns passkey options. */
  async startLogin(
    customerId: string,
    body: ScaLoginStartRequest,
    options?: RequestOptions,
  ): Promise<ApiResult<ScaLoginStart>> {
    return this.#sender.send("POST", "/sca/login/start", { query: { customerId }, body, options });
  }

  /** `POST /sca/login/complete?customerId=` (`completeScaLogin`) → `{status: "SUCCESS", sessionExpiresAt}`. */
  async completeLogin(
    customerId: string,
    body: ScaLoginCompleteRequest,
    options?: RequestOptions,
  ): Promise<ApiResult<ScaLoginComplete>> {
    return this.#sender.send("POST", "/sca/login/complete", { query: { customerId }, body, options });
  }

  /**
   * Starts and completes a login: `answer` is the code the customer typed (sandbox `000000`), or, for
   * `factor: "PASSKEY"`, a function that runs `navigator.credentials.get` with `passkeyOptions` and returns
   * `{passkeyAssertion, origin}`. A wrong code is `BadRequestError` `INVALID_INPUT`; five wrong answers in a
   * row lock the customer for 30 minutes (`PaysvcError` status 423 `ACCOUNT_LOCKED`).
   */
  async login(
    customerId: string,
    endUserIpAddress: string,
    answer: ScaAnswerSource,
    options: ScaLoginOptions = {},
  ): Promise<ApiResult<ScaLoginComplete>> {
    const { factor = "SMS_OTP", ...requestOptions } = options;
    const start = await this.startLogin(customerId, { factor }, stepOptions(requestOptions, "start"));
    const reply = typeof answer === "string" ? { code: answer } : await answer(start);
    return this.completeLogin(
      customerId,
      { ...reply, factor, endUserIpAddress, challengeId: start.challengeId ?? null },
      stepOptions(requestOptions, "complete"),
    );
  }

  /**
   * `POST /sca/record-event?customerId=` (`recordSecurityEvent`): FAILED_LOGIN_ATTEMPT counts towards the
   * lock; RESET_PASSWORD_COMPLETED ends the customer's SCA sessions.
   */
  async recordSecurityEvent(
    customerId: string,
    body: RecordSecurityEventRequest,
    options?: RequestOptions,
  ): Promise<ApiResult<RecordSecurityEventResponse>> {
    return this.#sender.send("POST", "/sca/record-event", { query: { customerId }, body, options });
  }

  /**
   * `POST /quotes/{quoteId}/authorize` (`authorizeQuote`): answers a `PENDING_AUTHORIZATION` quote's
   * `scaChallenge` and executes the quote. Needs `TRANSACT`.
   */
  async authorizeQuote(
    quoteId: string,
    body: ScaAuthorization,
    options?: RequestOptions,
  ): Promise<ApiResult<Quote>> {
    return this.#sender.send("POST", path`/quotes/${quoteId}/authorize`, { body, options });
  }

  /**
   * `POST /quotes/{quoteId}/authorize/resend` (`resendQuoteScaCode`) → `204`: a new code; the quote's
   * `scaChallenge` changes. Within 30 seconds of the last code: 429 `RATE_LIMITED` with Retry-After, which
   * the client waits out and retries like any 429 (`maxRetries`); past them, a `PaysvcError` status 429.
   */
  async resendQuoteScaCode(quoteId: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("POST", path`/quotes/${quoteId}/authorize/resend`, { options });
  }

  /**
   * `POST /customers/{customerId}/verify-email` → `204` (the hosted API's `sendCustomerEmailVerification`):
   * sends a code, valid 5 minutes, to the customer's e-mail; a new send replaces the open code. No e-mail
   * on file is `ConflictError` `CONFLICT`.
   */
  async sendEmailVerification(customerId: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("POST", path`/customers/${customerId}/verify-email`, { options });
  }

  /**
   * `POST /customers/{customerId}/verify-email/confirm {code}` (`confirmCustomerEmailVerification`): the
   * Customer, its `contactVerification.email` now `VERIFIED`. A wrong code is `BadRequestError`
   * `INVALID_INPUT` on `code`; no code waiting (never sent, used or expired) is `ConflictError` `CONFLICT`.
   */
  async confirmEmailVerification(
    customerId: string,
    body: ContactVerificationConfirmBody,
    options?: RequestOptions,
  ): Promise<ApiResult<Customer>> {
    return this.#sender.send("POST", path`/customers/${customerId}/verify-email/confirm`, { body, options });
  }

  /** `POST /customers/{customerId}/verify-phone` → `204` (`sendCustomerPhoneVerification`): a code by SMS. */
  async sendPhoneVerification(customerId: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("POST", path`/customers/${customerId}/verify-phone`, { options });
  }

  /** `POST /customers/{customerId}/verify-phone/confirm {code}` (`confirmCustomerPhoneVerification`). */
  async confirmPhoneVerification(
    customerId: string,
    body: ContactVerificationConfirmBody,
    options?: RequestOptions,
  ): Promise<ApiResult<Customer>> {
    return this.#sender.send("POST", path`/customers/${customerId}/verify-phone/confirm`, { body, options });
  }

  /**
   * `POST /customers/external-accounts/{id}/trust` (`startBeneficiaryTrust`): a challenge for the customer;
   * the account is trusted (payouts to it skip the per-payment challenge) once `confirmBeneficiaryTrust`
   * answers it. An account already trusted answers without `scaChallenge`.
   */
  async startBeneficiaryTrust(
    externalAccountId: string,
    options?: RequestOptions,
  ): Promise<ApiResult<BeneficiaryTrustStart>> {
    return this.#sender.send("POST", path`/customers/external-accounts/${externalAccountId}/trust`, {
      options,
    });
  }

  /** `POST /customers/external-accounts/{id}/trust/confirm` (`confirmBeneficiaryTrust`) → `{ trusted: true }`. */
  async confirmBeneficiaryTrust(
    externalAccountId: string,
    body: BeneficiaryTrustConfirmRequest,
    options?: RequestOptions,
  ): Promise<ApiResult<BeneficiaryTrustConfirm>> {
    return this.#sender.send("POST", path`/customers/external-accounts/${externalAccountId}/trust/confirm`, {
      body,
      options,
    });
  }

  /**
   * `POST /customers/external-accounts/{id}/untrust` (`startBeneficiaryUntrust`): a challenge; the account
   * stays trusted (and cannot be deleted) until `confirmBeneficiaryUntrust` answers it.
   */
  async startBeneficiaryUntrust(
    externalAccountId: string,
    options?: RequestOptions,
  ): Promise<ApiResult<BeneficiaryTrustStart>> {
    return this.#sender.send("POST", path`/customers/external-accounts/${externalAccountId}/untrust`, {
      options,
    });
  }

  /** `POST /customers/external-accounts/{id}/untrust/confirm` (`confirmBeneficiaryUntrust`) → `{ trusted: false }`. */
  async confirmBeneficiaryUntrust(
    externalAccountId: string,
    body: BeneficiaryTrustConfirmRequest,
    options?: RequestOptions,
  ): Promise<ApiResult<BeneficiaryTrustConfirm>> {
    return this.#sender.send(
      "POST",
      path`/customers/external-accounts/${externalAccountId}/untrust/confirm`,
      {
        body,
        options,
      },
    );
  }
}
