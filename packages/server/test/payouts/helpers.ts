import { expect } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import type { TestClient, TestServer } from "../harness.js";

export type Transaction = Record<string, unknown> & {
  id: string;
  status: string;
  failureReason?: string;
  expectedSettlementAt?: string;
  refund?: Record<string, unknown>;
};
export type Payout = {
  id: string;
  status: string;
  transactionId?: string;
  paymentRail?: string;
  railSelectionMode?: string;
  destination: Record<string, unknown>;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  feesIncluded: number;
};

/** A fresh sandbox platform with its own client (its own clock), or the harness's. */
export async function platformClient(server: TestServer, at?: string): Promise<TestClient> {
  const client = server.client.as(await server.newPlatform());
  if (at) expect((await client.post("/sandbox/clock/advance", { to: at })).status).toBe(200);
  return client;
}

/** A customer with a funded USD account and a USD bank account whose number ends in `suffix`. */
export async function payer(
  client: TestClient,
  options: { suffix?: string; funds?: number; customerId?: string } = {},
) {
  const customerId =
    options.customerId ??
    (await client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL", ...withEndUserTerms }))
      .body.id;
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customerId}&currency=USD`,
  );
  const accountId = accounts.body.data[0]?.id as string;
  const funds = options.funds ?? 100_000;
  if (funds > 0) {
    const funded = await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: funds });
    expect(funded.status).toBe(200);
  }
  const external = await client.post<{ id: string; status: string }>("/customers/external-accounts", {
    customerId,
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: `1234567${options.suffix ?? "000"}`,
      routingNumber: "021000021",
      bankAccountType: "CHECKING",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" },
    },
  });
  expect(external.status).toBe(201);
  return { customerId, accountId, externalId: external.body.id };
}

/** A payout quote body: `amount` sent (SENDING side) from `accountId` to the bank account. */
export function payout(
  accountId: string,
  externalId: string,
  amount: number,
  extra: Record<string, unknown> = {},
) {
  const { paymentRail, ...rest } = extra;
  return {
    source: { sourceType: "ACCOUNT", accountId },
    destination: {
      destinationType: "ACCOUNT",
      accountId: externalId,
      ...(paymentRail ? { paymentRail } : {}),
    },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount,
    ...rest,
  };
}

export async function changesOf(server: TestServer, transactionId: string) {
  const rows = await server.db.query<{ amount: string | number; fee: string | number }>(
    "SELECT amount, fee FROM balance_changes WHERE transaction_id = $1 ORDER BY recorded_at, amount",
    [transactionId],
  );
  return rows.map((r) => ({ amount: Number(r.amount), fee: Number(r.fee) }));
}

export async function eventsOf(server: TestServer, transactionId: string): Promise<string[]> {
  const rows = await server.db.query<{ type: string }>(
    "SELECT type FROM webhook_events WHERE type LIKE 'OUTGOING_PAYMENT.%' AND body LIKE $1 ORDER BY created_at, type",
    [`%"id":"${transactionId}"%`],
  );
  return rows.map((r) => r.type);
}

export async function transactionOf(client: TestClient, id: string): Promise<Transaction> {
  const res = await client.get<Transaction>(`/transactions/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

export async function advance(client: TestClient, to: string | Date) {
  const res = await client.post("/sandbox/clock/advance", { to: new Date(to).toISOString() });
  expect(res.status).toBe(200);
}
