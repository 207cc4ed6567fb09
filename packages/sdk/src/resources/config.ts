import type { ApiResult, RequestOptions, RequestSender } from "../core/request.js";
import type { PlatformConfig, UpdateConfigBody } from "../types/index.js";

/** The calling platform's configuration (conventions §7.3). */
export class ConfigResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `GET /config`. */
  async get(options?: RequestOptions): Promise<ApiResult<PlatformConfig>> {
    return this.#sender.send("GET", "/config", { options });
  }

  /** `PATCH /config` with at least one field; needs `MANAGE`. */
  async update(body: UpdateConfigBody, options?: RequestOptions): Promise<ApiResult<PlatformConfig>> {
    return this.#sender.send("PATCH", "/config", { body, options });
  }
}
