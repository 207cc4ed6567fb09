import type { ApiResult, RequestOptions, RequestSender } from "../core/request.js";
import type { EstimateWithdrawalFeeBody, WithdrawalFeeEstimate } from "../types/index.js";

/** Crypto helpers. */
export class CryptoResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /crypto/estimate-withdrawal-fee`: the fees of a stablecoin withdrawal and what would arrive. */
  async estimateWithdrawalFee(
    body: EstimateWithdrawalFeeBody,
    options?: RequestOptions,
  ): Promise<ApiResult<WithdrawalFeeEstimate>> {
    return this.#sender.send("POST", "/crypto/estimate-withdrawal-fee", { body, options });
  }
}
