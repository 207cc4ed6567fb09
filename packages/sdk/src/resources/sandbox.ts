import { type ApiResult, path, type RequestOptions, type RequestSender } from "../request.js";
import type { InternalAccount, SandboxClock } from "../types.js";

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
}
