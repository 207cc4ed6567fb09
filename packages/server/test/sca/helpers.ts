import { expect } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import type { TestClient, TestServer } from "../harness.js";

export type ErrorBody = { code: string; reason: string; details?: { errors: { field: string }[] } };
export type ScaChallenge = {
  requestId: string;
  customerId: string;
  purpose: string;
  factor: string;
  challenge?: string;
  expiresAt: string;
};
export type ScaSession = {
  id: string;
  customerId: string;
  factor: string;
  createdAt: string;
  sessionExpiresAt: string;
};
export type ExternalAccount = { id: string; status: string; beneficiaryTrustStatus?: string };
export type Quote = {
  id: string;
  status: string;
  transactionId?: string;
  scaChallenge?: { requestId: string; factor: string; expiresAt: string };
};

/** Wednesday 10:00 Chicago: a business day, so payouts behave as on any weekday. */
export const AT = "2027-03-10T16:00:00.000Z";

/** A fresh sandbox platform (its own sandbox clock) set to `at`. */
export async function platformClient(server: TestServer, at = AT): Promise<TestClient> {
  const client = server.client.as(await server.newPlatform());
  await advance(client, at);
  return client;
}

export async function advance(client: TestClient, to: string | Date | number) {
  const res = await client.post("/sandbox/clock/advance", { to: new Date(to).toISOString() });
  expect(res.status).toBe(200);
}

/** Moves the platform's sandbox clock `ms` past its current reading. */
export async function advanceBy(client: TestClient, ms: number) {
  const clock = await client.get<{ now: string }>("/sandbox/clock");
  expect(clock.status).toBe(200);
  await advance(client, Date.parse(clock.body.now) + ms);
}

/** A customer (region DE, the EEA, unless told) with an e-mail and a phone, and its funded USD account. */
export async function scaCustomer(
  client: TestClient,
  options: { region?: string; funds?: number; email?: string | null; phoneNumber?: string | null } = {},
) {
  const body: Record<string, unknown> = {
    customerType: "INDIVIDUAL",
    region: options.region ?? "DE",
    ...withEndUserTerms,
  };
  if (options.email !== null) body.email = options.email ?? `sca-${crypto.randomUUID()}@example.com`;
  if (options.phoneNumber !== null) body.phoneNumber = options.phoneNumber ?? "+4915112345678";
  const customer = await client.post<{ id: string }>("/customers", body);
  expect(customer.status).toBe(201);
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD&type=INTERNAL_FIAT`,
  );
  const accountId = accounts.body.data[0]?.id as string;
  const funds = options.funds ?? 100_000;
  if (funds > 0) {
    const funded = await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: funds });
    expect(funded.status).toBe(200);
  }
  return { customerId: customer.body.id, accountId };
}

/** Logs the customer in with the sandbox OTP: a live 180-day SCA session. */
export async function login(client: TestClient, customerId: string): Promise<ScaSession> {
  const started = await client.post<ScaChallenge>("/sca/login", { customerId });
  expect(started.status).toBe(201);
  const done = await client.post<ScaSession>("/sca/login/complete", {
    requestId: started.body.requestId,
    code: "000000",
  });
  expect(done.status).toBe(200);
  return done.body;
}

/** A USD bank account of the customer (validated at once in the sandbox). */
export async function bankAccount(client: TestClient, customerId: string): Promise<string> {
  const res = await client.post<ExternalAccount>("/customers/external-accounts", {
    customerId,
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: `${Math.floor(Math.random() * 1e8)}10`.padStart(12, "1"),
      routingNumber: "021000021",
      bankAccountType: "CHECKING",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "DE" },
    },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A payout quote body: `amount` cents sent from `accountId` to the external account. */
export function payout(
  accountId: string,
  externalId: string,
  amount: number,
  extra: Record<string, unknown> = {},
) {
  return {
    source: { sourceType: "ACCOUNT", accountId },
    destination: { destinationType: "ACCOUNT", accountId: externalId },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount,
    ...extra,
  };
}

export async function balanceOf(client: TestClient, accountId: string): Promise<number> {
  const res = await client.get<{ balance: { amount: number } }>(`/internal-accounts/${accountId}`);
  expect(res.status).toBe(200);
  return res.body.balance.amount;
}
