import { expect } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import type { TestClient, TestResponse, TestServer } from "../harness.js";

export const ALL_PERMISSIONS = [
  "VIEW_TRANSACTIONS",
  "CREATE_TRANSFERS",
  "CREATE_QUOTES",
  "EXECUTE_QUOTES",
  "MANAGE_EXTERNAL_ACCOUNTS",
];

export type AgentPolicy = {
  permissions: string[];
  defaultExecutionMode: "AUTO" | "APPROVAL_REQUIRED";
  spendingLimits: {
    currency: string;
    perTransactionLimit: number;
    dailyLimit?: number | null;
    dailyTransactionLimit?: number;
    monthlyLimit?: number | null;
  };
  accountRestrictions?: {
    allowedAccountIds?: string[] | null;
    accountRules?: { accountId: string; executionMode?: string; perTransactionLimit?: number | null }[];
  };
  approvalThresholds?: { currency?: string; amount?: number | null };
};
export type DeviceCode = { code: string; agentId: string; expiresAt: string; redeemed: boolean };
export type Agent = {
  id: string;
  name: string;
  customerId: string;
  isPaused: boolean;
  isConnected: boolean;
  policy: AgentPolicy;
  usage: {
    dailyTransactionCount: number;
    dailySpend: number;
    dailyResetDate?: string;
    monthlySpend: number;
    monthlyResetMonth?: string;
  };
  createdAt: string;
  updatedAt: string;
};
/** The agent as `POST /agents` answers it (AgentCreateResponse), with its first device code beside it. */
export type CreatedAgent = Agent & { deviceCode: DeviceCode };
export type ErrorBody = { code: string; reason: string; details?: { errors: { field: string }[] } };

/** A client of the agent routes: `Authorization: Bearer <accessToken>`, no Basic credentials. */
export class AgentClient {
  constructor(
    readonly client: TestClient,
    readonly accessToken: string,
  ) {}
  private options() {
    return { auth: null, headers: { authorization: `Bearer ${this.accessToken}` } };
  }
  get<T = Record<string, unknown>>(path: string): Promise<TestResponse<T>> {
    return this.client.get<T>(path, this.options());
  }
  delete<T = Record<string, unknown>>(path: string): Promise<TestResponse<T>> {
    return this.client.delete<T>(path, this.options());
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown): Promise<TestResponse<T>> {
    return this.client.post<T>(path, body, this.options());
  }
}

export const policy = (overrides: Record<string, unknown> = {}) => ({
  permissions: ALL_PERMISSIONS,
  defaultExecutionMode: "APPROVAL_REQUIRED",
  spendingLimits: { currency: "USD", perTransactionLimit: 50_000 },
  ...overrides,
});

/** A customer with its USD account (funded with `funds`), on the client's platform. */
export async function customerWithAccount(client: TestClient, funds = 100_000) {
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    ...withEndUserTerms,
  });
  expect(customer.status, customer.text).toBe(201);
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD`,
  );
  const accountId = accounts.body.data[0]?.id as string;
  if (funds > 0) {
    const funded = await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: funds });
    expect(funded.status, funded.text).toBe(200);
  }
  return { customerId: customer.body.id, accountId };
}

export async function createAgent(
  client: TestClient,
  customerId: string,
  agentPolicy: Record<string, unknown> = policy(),
): Promise<CreatedAgent> {
  const res = await client.post<{ agent: Agent; deviceCode: DeviceCode }>("/agents", {
    customerId,
    name: "Budget bot",
    policy: agentPolicy,
  });
  expect(res.status, res.text).toBe(201);
  return { ...res.body.agent, deviceCode: res.body.deviceCode };
}

export async function redeem(client: TestClient, code: string) {
  return client.post<{ agentId: string; agentName: string; accessToken: string; policy: AgentPolicy }>(
    `/agents/device-codes/${code}/redeem`,
    undefined,
    { auth: null },
  );
}

/** A customer (funded USD account), an agent for it with `agentPolicy`, and the agent's client. */
export async function agentSetup(
  server: TestServer,
  options: { client?: TestClient; policy?: Record<string, unknown>; funds?: number } = {},
) {
  const client = options.client ?? server.client;
  const { customerId, accountId } = await customerWithAccount(client, options.funds);
  const agent = await createAgent(client, customerId, policy(options.policy));
  const redeemed = await redeem(client, agent.deviceCode?.code as string);
  expect(redeemed.status, redeemed.text).toBe(200);
  return { customerId, accountId, agent, agentClient: new AgentClient(client, redeemed.body.accessToken) };
}

export const bankAccountInfo = (accountNumber = "1234567000") => ({
  accountType: "USD_ACCOUNT",
  accountNumber,
  routingNumber: "021000021",
  bankAccountType: "CHECKING",
  beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" },
});

export const transfer = (from: string, to: string, amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: "ACCOUNT", accountId: from },
  destination: { destinationType: "ACCOUNT", accountId: to },
  lockedCurrencySide: "SENDING",
  lockedCurrencyAmount: amount,
  ...extra,
});

export async function advanceClock(client: TestClient, ms: number) {
  const now = await client.get<{ now: string }>("/sandbox/clock");
  const res = await client.post("/sandbox/clock/advance", {
    to: new Date(Date.parse(now.body.now) + ms).toISOString(),
  });
  expect(res.status, res.text).toBe(200);
}
