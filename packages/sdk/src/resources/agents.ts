import { paginate } from "../core/pagination.js";
import {
  type ApiResult,
  type EmptyResult,
  path,
  type RequestOptions,
  type RequestSender,
} from "../core/request.js";
import type {
  Agent,
  AgentAction,
  AgentApprovalListParams,
  AgentListParams,
  CreateAgentBody,
  CreatedAgent,
  DeviceCode,
  DeviceCodeStatus,
  Page,
  RedeemedDeviceCode,
  RejectAgentActionBody,
  UpdateAgentBody,
  UpdateAgentPolicyBody,
} from "../types/index.js";

/**
 * `/agents` (docs/guides/agents.md): the platform manages agents bound to one customer, with a policy, and
 * hands their apps device codes. Payments an agent starts under `APPROVAL_REQUIRED` wait for
 * `approveAction` (or `client.transactions.approve`). An unknown or deleted agent is `NotFoundError`.
 */
export class AgentsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /agents` → `201` `{agent, deviceCode}`: the agent and its first device code (shown once). */
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

  /** `PATCH /agents/{agentId}`: rename or pause the agent (a paused agent may only read `/agents/me`). */
  async update(agentId: string, body: UpdateAgentBody, options?: RequestOptions): Promise<ApiResult<Agent>> {
    return this.#sender.send("PATCH", path`/agents/${agentId}`, { body, options });
  }

  /** `PATCH /agents/{agentId}/policy`: the fields given replace the policy's (spendingLimits merged), the others stay. */
  async updatePolicy(
    agentId: string,
    body: UpdateAgentPolicyBody,
    options?: RequestOptions,
  ): Promise<ApiResult<Agent>> {
    return this.#sender.send("PATCH", path`/agents/${agentId}/policy`, { body, options });
  }

  /** `GET /agents/approvals`: one page of the agent actions waiting for the platform (`PENDING_APPROVAL`). */
  async listApprovals(
    params: AgentApprovalListParams = {},
    options?: RequestOptions,
  ): Promise<ApiResult<Page<AgentAction>>> {
    return this.#sender.send("GET", "/agents/approvals", { query: params, options });
  }

  /** Every agent action waiting for approval that matches the filters, page by page. */
  listAllApprovals(
    params: AgentApprovalListParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<AgentAction, void, undefined> {
    return paginate((page) => this.listApprovals(page, options), params);
  }

  /**
   * `POST /agents/{agentId}/actions/{actionId}/approve`: executes the action's payment (as
   * `client.transactions.approve`). Not `PENDING_APPROVAL` is `ConflictError` `CONFLICT`.
   */
  async approveAction(
    agentId: string,
    actionId: string,
    options?: RequestOptions,
  ): Promise<ApiResult<AgentAction>> {
    return this.#sender.send("POST", path`/agents/${agentId}/actions/${actionId}/approve`, { options });
  }

  /** `POST /agents/{agentId}/actions/{actionId}/reject`: REJECTED; its payment and quote FAILED. */
  async rejectAction(
    agentId: string,
    actionId: string,
    body: RejectAgentActionBody = {},
    options?: RequestOptions,
  ): Promise<ApiResult<AgentAction>> {
    return this.#sender.send("POST", path`/agents/${agentId}/actions/${actionId}/reject`, { body, options });
  }

  /** `GET /agents/device-codes/{code}/status`: whether the agent app has redeemed the code. */
  async getDeviceCodeStatus(code: string, options?: RequestOptions): Promise<ApiResult<DeviceCodeStatus>> {
    return this.#sender.send("GET", path`/agents/device-codes/${code}/status`, { options });
  }

  /** `DELETE /agents/{agentId}` → `204`: the access token stops working and open device codes are voided. */
  async delete(agentId: string, options?: RequestOptions): Promise<EmptyResult> {
    return this.#sender.send("DELETE", path`/agents/${agentId}`, { options });
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
