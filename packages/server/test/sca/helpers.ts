import { expect } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import type { TestClient, TestServer } from "../harness.js";

export type ErrorBody = {
  code: string;
  reason: string;
  details?: { errors: { field: string }[]; lockedUntil?: string };
};
export type ScaChallenge = {
  id: string;
  expiresAt: string;
  factor: string;
  availableFactors: string[];
  purpose: string;
  passkeyAssertionOptions?: Record<string, unknown> | null;
  passkeyAllowedOrigins?: string[] | null;
};
export type ScaLoginStart = {
  factor: string;
  challengeId: string | null;
  expiresAt: string | null;
  passkeyOptions?: { challenge: string; rpId: string; allowCredentials: { id: string }[] } | null;
  allowedOrigins?: string[] | null;
  relyingPartyId?: string | null;
};
export type ScaLoginComplete = { status: string; sessionExpiresAt: string };
/** The end user's IP address every login completion carries. */
export const IP = "203.0.113.42";
export type ExternalAccount = { id: string; status: string; beneficiaryTrustStatus?: string };
export type Quote = {
  id: string;
  status: string;
  transactionId?: string;
  scaChallenge?: ScaChallenge;
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

/** Logs the customer in with the sandbox SMS_OTP code: a live 180-day SCA session. */
export async function login(client: TestClient, customerId: string): Promise<ScaLoginComplete> {
  const query = `?customerId=${customerId}`;
  const started = await client.post<ScaLoginStart>(`/sca/login/start${query}`, { factor: "SMS_OTP" });
  expect(started.status).toBe(200);
  const done = await client.post<ScaLoginComplete>(`/sca/login/complete${query}`, {
    factor: "SMS_OTP",
    endUserIpAddress: IP,
    challengeId: started.body.challengeId,
    code: "000000",
  });
  expect(done.status).toBe(200);
  return done.body;
}

/** Ends the customer's SCA sessions: the platform reports a completed password reset. */
export async function endSessions(client: TestClient, customerId: string) {
  const res = await client.post(`/sca/record-event?customerId=${customerId}`, {
    eventType: "RESET_PASSWORD_COMPLETED",
  });
  expect(res.status).toBe(200);
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
