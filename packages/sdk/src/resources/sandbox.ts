import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type { LivenessCaptureBody, LivenessCaptureResult } from "../types/external-accounts.js";
import type {
  CardSimulationBodies,
  CardSimulationOp,
  CardSimulationResult,
  InternalAccount,
  PinAttemptResult,
  SandboxClock,
  SandboxSendBody,
  Stablecoin,
  StablecoinEnablementStatus,
  Transaction,
} from "../types/index.js";

/** Sandbox simulations (conventions §1.9); a production platform gets `PermissionError` `FORBIDDEN`. */
export class SandboxResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /**
   * `POST /sandbox/internal-accounts/{accountId}/fund {amount}`: a simulated deposit of `amount` minor
   * units (1 to 100,000,000,000): one `COMPLETED` `INCOMING` transaction and one balance change.
   */
  async fund(
    accountId: string,
    amount: number,
    options?: RequestOptions,
  ): Promise<ApiResult<InternalAccount>> {
    return this.#sender.send("POST", path`/sandbox/internal-accounts/${accountId}/fund`, {
      body: { amount },
      options,
    });
  }

  /**
   * `POST /sandbox/send {quoteId, currencyCode, currencyAmount?}` → `200` Transaction: the money of a
   * REALTIME_FUNDING quote arrives. The exact amount lands (quote `COMPLETED`); another amount is sent back
   * (`FAILED`, `FUNDING_AMOUNT_MISMATCH`).
   */
  async send(body: SandboxSendBody, options?: RequestOptions): Promise<ApiResult<Transaction>> {
    return this.#sender.send("POST", "/sandbox/send", { body, options });
  }

  /** `GET /sandbox/clock`: this platform's current time. */
  async getClock(options?: RequestOptions): Promise<ApiResult<SandboxClock>> {
    return this.#sender.send("GET", "/sandbox/clock", { options });
  }

  /**
   * `POST /sandbox/clock/advance {to}`: moves this platform's clock forward to `to` (a date-time with an
   * offset, or a Date); it never moves back (`BadRequestError` on `to`).
   */
  async advanceClock(to: string | Date, options?: RequestOptions): Promise<ApiResult<SandboxClock>> {
    const body = { to: to instanceof Date ? to.toISOString() : to };
    return this.#sender.send("POST", "/sandbox/clock/advance", { body, options });
  }

  /**
   * `POST /sandbox/cards/{cardId}/simulate/{op}` → `202 {issuerTransactionToken, cardTransactionId}`: a card
   * network message (conventions §6.5). The body type follows `op`:
   *
   *     const auth = await paysvc.sandbox.simulateCard(card.id, "authorization", {
   *       amount: 1_000, currency: { code: "USD" }, merchant: { descriptor: "Corner Cafe" },
   *     });
   *     await paysvc.sandbox.simulateCard(card.id, "clearing", { cardTransactionId: auth.cardTransactionId, amount: 1_000 });
   *
   * A declined authorization still answers `202`: read the row (`client.transactions.get`) for its status.
   * A failed precondition is `ConflictError` `CONFLICT`; an unknown row `NotFoundError` `TRANSACTION_NOT_FOUND`.
   */
  async simulateCard<Op extends CardSimulationOp>(
    cardId: string,
    op: Op,
    body: CardSimulationBodies[Op],
    options?: RequestOptions,
  ): Promise<ApiResult<CardSimulationResult>> {
    return this.#sender.send("POST", path`/sandbox/cards/${cardId}/simulate/${op}`, { body, options });
  }

  /**
   * `POST /sandbox/cards/{cardId}/simulate/pin_attempt {pin}`: a PIN entered at a terminal. Three wrong
   * attempts in a row make the card's `pinStatus` `BLOCKED`.
   */
  async pinAttempt(
    cardId: string,
    pin: string,
    options?: RequestOptions,
  ): Promise<ApiResult<PinAttemptResult>> {
    return this.#sender.send("POST", path`/sandbox/cards/${cardId}/simulate/pin_attempt`, {
      body: { pin },
      options,
    });
  }

  /**
   * `POST /ownership/liveness/{token}/sessions` → `202`: the sandbox liveness provider's SDK path, for a
   * LIVENESS challenge's `token` (what an app embedding the provider's SDK sends instead of opening
   * `verificationLink`; the same outcome). `outcome` picks the provider's answer, which arrives a few
   * seconds later (on the platform clock) as `EXTERNAL_ACCOUNT.STATUS_UPDATED`: see
   * `externalAccounts.waitForLivenessOutcome`. The token is the credential; a second capture, or a
   * replaced or expired challenge, is `ConflictError` `CONFLICT`; an unknown token `NotFoundError`.
   */
  async submitLivenessCapture(
    token: string,
    body: LivenessCaptureBody,
    options?: RequestOptions,
  ): Promise<ApiResult<LivenessCaptureResult>> {
    return this.#sender.send("POST", path`/ownership/liveness/${token}/sessions`, { body, options });
  }

  /**
   * `POST /sandbox/stablecoins/{stablecoinId}/enablement {status}`: the operator's enablement step
   * (PENDING_APPROVAL → ENABLING → ENABLED, …); any other move is `ConflictError` `INVALID_STATE_TRANSITION`.
   */
  async setStablecoinEnablement(
    stablecoinId: string,
    status: StablecoinEnablementStatus,
    options?: RequestOptions,
  ): Promise<ApiResult<Stablecoin>> {
    return this.#sender.send("POST", path`/sandbox/stablecoins/${stablecoinId}/enablement`, {
      body: { status },
      options,
    });
  }

  /** `POST /sandbox/stablecoins/{stablecoinId}/provision`: the operator provisions it for mints and burns. */
  async provisionStablecoin(stablecoinId: string, options?: RequestOptions): Promise<ApiResult<Stablecoin>> {
    return this.#sender.send("POST", path`/sandbox/stablecoins/${stablecoinId}/provision`, { options });
  }
}
