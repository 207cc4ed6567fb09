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
  EnrollScaPasskeyBody,
  Quote,
  ScaAnswer,
  ScaChallenge,
  ScaCompleteBody,
  ScaFactor,
  ScaLoginBody,
  ScaPasskey,
  ScaSession,
} from "../types/index.js";

/** How `sca.login` answers the challenge: an OTP code, or a function of the challenge (a passkey assertion). */
export type ScaAnswerSource = string | ((challenge: ScaChallenge) => ScaAnswer | Promise<ScaAnswer>);

/** `sca.login` options: the request options, plus the factor (default OTP, or PASSKEY). */
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
 * Strong customer authentication for customers in the EEA and the UK
 * (docs/guides/strong-customer-authentication.md): login sessions (180 days), payment challenges, contact
 * verification and trusted beneficiaries. Writes for such a customer without a live session are
 * `ConflictError` `SCA_SESSION_REQUIRED`: call `login` and retry. A customer outside those regions is
 * `ConflictError` `CONFLICT`; too many wrong answers lock the customer (`PaysvcError` status 423 `ACCOUNT_LOCKED`).
 */
export class ScaResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /sca/login` → `201` a LOGIN challenge (OTP unless `factor` is PASSKEY). */
  async startLogin(body: ScaLoginBody, options?: RequestOptions): Promise<ApiResult<ScaChallenge>> {
    return this.#sender.send("POST", "/sca/login", { body, options });
  }

  /** `POST /sca/login/complete`: the answer to a LOGIN challenge → the session. */
  async completeLogin(body: ScaCompleteBody, options?: RequestOptions): Promise<ApiResult<ScaSession>> {
    return this.#sender.send("POST", "/sca/login/complete", { body, options });
  }

  /**
   * Starts and completes a login: `answer` is the OTP code the customer typed (sandbox `000000`), or, for
   * `factor: "PASSKEY"`, a function that signs the challenge and returns `{assertion}`. A wrong code is
   * `BadRequestError` `INVALID_INPUT`; call `login` again (a new challenge abandons the open one). Five wrong
   * answers in a row lock the customer for 30 minutes (`PaysvcError` status 423 `ACCOUNT_LOCKED`).
   */
  async login(
    customerId: string,
    answer: ScaAnswerSource,
    options: ScaLoginOptions = {},
  ): Promise<ApiResult<ScaSession>> {
    const { factor, ...requestOptions } = options;
    const body: ScaLoginBody = factor === undefined ? { customerId } : { customerId, factor };
    const challenge = await this.startLogin(body, stepOptions(requestOptions, "start"));
    const reply = typeof answer === "string" ? { code: answer } : await answer(challenge);
    return this.completeLogin(
      { ...reply, requestId: challenge.requestId },
      stepOptions(requestOptions, "complete"),
    );
  }

  /** `DELETE /sca/sessions/{sessionId}` → `204`: logs the customer out. */
  async revokeSession(sessionId: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("DELETE", path`/sca/sessions/${sessionId}`, { options });
  }

  /** `POST /sca/passkeys` → `201`: enrolls the customer's SCA passkey (one per customer). */
  async enrollPasskey(body: EnrollScaPasskeyBody, options?: RequestOptions): Promise<ApiResult<ScaPasskey>> {
    return this.#sender.send("POST", "/sca/passkeys", { body, options });
  }

  /** `DELETE /sca/passkeys/{passkeyId}` → `204`. */
  async deletePasskey(passkeyId: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("DELETE", path`/sca/passkeys/${passkeyId}`, { options });
  }

  /**
   * `POST /sca/payments/complete`: answers a `PENDING_AUTHORIZATION` quote's `scaChallenge` and executes the
   * quote. Needs `TRANSACT`.
   */
  async completePayment(body: ScaCompleteBody, options?: RequestOptions): Promise<ApiResult<Quote>> {
    return this.#sender.send("POST", "/sca/payments/complete", { body, options });
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
