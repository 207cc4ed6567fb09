import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type { CreateQuoteBody, ExecuteQuoteBody, Quote } from "../types/index.js";
import { type SigningKey, stamp } from "../wallet/crypto.js";

/**
 * Quotes (conventions §3.3): price a transfer, a payout or a realtime-funded deposit, then execute it
 * (or, for `REALTIME_FUNDING`, pay its `paymentInstructions`; `sandbox.send` in the sandbox).
 *
 *     const quote = await paysvc.quotes.create({
 *       source: { sourceType: "ACCOUNT", accountId: from },
 *       destination: { destinationType: "ACCOUNT", accountId: to },
 *       lockedCurrencySide: "SENDING",
 *       lockedCurrencyAmount: 1_000,
 *     });
 *     await paysvc.quotes.execute(quote.id);
 */
export class QuotesResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /quotes` → `201` Quote (with `immediatelyExecute`, already executed). */
  async create(body: CreateQuoteBody, options?: RequestOptions): Promise<ApiResult<Quote>> {
    return this.#sender.send("POST", "/quotes", { body, options });
  }

  /** `GET /quotes/{quoteId}`; a PENDING quote past `expiresAt` reads EXPIRED. */
  async get(quoteId: string, options?: RequestOptions): Promise<ApiResult<Quote>> {
    return this.#sender.send("GET", path`/quotes/${quoteId}`, { options });
  }

  /** `POST /quotes/{quoteId}/execute {scaFactor?}` → `200` Quote; expired → `BadRequestError` QUOTE_EXPIRED. */
  async execute(
    quoteId: string,
    body: ExecuteQuoteBody = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Quote>> {
    return this.#sender.send("POST", path`/quotes/${quoteId}/execute`, { body, options });
  }

  /**
   * Executes a quote from an embedded wallet (the off-ramp, conventions §3.3): stamps its
   * `paymentInstructions[].accountOrWalletInfo.payloadToSign` byte for byte with an active session key of
   * that wallet (`wallet.loginWithEmailOtp` and the like) and sends it as `Service-Wallet-Signature`.
   */
  async executeFromWallet(
    quote: Pick<Quote, "id" | "paymentInstructions">,
    sessionKey: SigningKey,
    body: ExecuteQuoteBody = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Quote>> {
    const payload = quote.paymentInstructions?.find(
      (entry) => entry.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
    )?.accountOrWalletInfo.payloadToSign;
    if (typeof payload !== "string")
      throw new TypeError(
        `Quote ${quote.id} has no EMBEDDED_WALLET payloadToSign; execute it with quotes.execute.`,
      );
    const headers = { "service-wallet-signature": stamp(payload, sessionKey.privateKey) };
    return this.#sender.send("POST", path`/quotes/${quote.id}/execute`, { body, options, headers });
  }
}
