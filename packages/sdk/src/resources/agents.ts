import { paginate } from "../core/pagination.js";
import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type {
  Agent,
  AgentListParams,
  CreateAgentBody,
  CreatedAgent,
  DeviceCode,
  Page,
  RedeemedDeviceCode,
  UpdateAgentBody,
} from "../types/index.js";

/**
 * `/agents` (docs/guides/agents.md): the platform manages agents bound to one customer, with a policy, and
 * hands their apps device codes. Payments an agent starts with `requirePlatformApproval` wait for
 * `client.transactions.approve`. An unknown agent is `NotFoundError`.
 */
export class AgentsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /agents` → `201` Agent in `ACTIVE` with its first `deviceCode` (shown once). */
  async create(body: CreateAgentBody, options?: RequestOptions): Promise<ApiResult<CreatedAgent>> {
    return this.#sender.send("POST", "/agents", { body, options });
  }

  /** `GET /agents/{agentId}`. */
  async get(agentId: string, options?: RequestOptions): Promise<ApiResult<Agent>> {
    return this.#sender.send("GET", path`/agents/${agentId}`, { options });
  }

  /** `GET /agents`: one page, newest first unless `sortOrder` is `asc`. */
  async list(params: AgentListParams = {}, options?: RequestOptions): Promise<ApiResult<Page<Agent>>> {
    return this.#sender.send("GET", "/agents", { query: params, options });
  }

  /** Every agent matching the filters, page by page. */
  listAll(params: AgentListParams = {}, options?: RequestOptions): AsyncGenerator<Agent, void, undefined> {
    return paginate((page) => this.list(page, options), params);
  }

  /** `PATCH /agents/{agentId}`: rename or replace the policy (at least one field). */
  async update(agentId: string, body: UpdateAgentBody, options?: RequestOptions): Promise<ApiResult<Agent>> {
    return this.#sender.send("PATCH", path`/agents/${agentId}`, { body, options });
  }

  /** `POST /agents/{agentId}/revoke`: the access token stops working and open device codes are voided. */
  async revoke(agentId: string, options?: RequestOptions): Promise<ApiResult<Agent>> {
    return this.#sender.send("POST", path`/agents/${agentId}/revoke`, { options });
  }

  /** `POST /agents/{agentId}/device-codes` → `201`: a new code (10 minutes, single use). */
  async createDeviceCode(agentId: string, options?: RequestOptions): Promise<ApiResult<DeviceCode>> {
    return this.#sender.send("POST", path`/agents/${agentId}/device-codes`, { options });
  }

  /**
   * `POST /agents/device-codes/{code}/redeem`: what the agent app does with a device code (the route takes
   * no credentials; the Basic header sent here is ignored). Redeeming replaces the agent's access token. An unknown or expired
   * code is `NotFoundError` `NOT_FOUND`; one already redeemed is `ConflictError` `CONFLICT`.
   */
  async redeemDeviceCode(code: string, options?: RequestOptions): Promise<ApiResult<RedeemedDeviceCode>> {
    return this.#sender.send("POST", path`/agents/device-codes/${code}/redeem`, { options });
  }
}
