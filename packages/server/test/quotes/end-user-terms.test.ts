import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AgentClient, bankAccountInfo, createAgent, redeem } from "../agents/helpers.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { payer, payout } from "../payouts/helpers.js";
import { balanceOf, type ErrorBody, fund, type Quote, transfer } from "./helpers.js";

// Interface, 400 codes: END_USER_TERMS_NOT_ACCEPTED, "quotes fail until acceptance is on file". Every
// customer whose account a quote moves money from or to needs a SERVICE_END_USER_TERMS acceptance.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const privacyOnly = {
  agreementConsents: [
    {
      type: "PRIVACY_POLICY",
      termsVersion: "2025-10-01",
      acceptedAt: "2026-01-01T00:00:00Z",
      ipAddress: "203.0.113.11",
    },
  ],
};

/** A customer (with `consents` in its create body) and its USD account funded with `funds`. */
async function customer(consents: Record<string, unknown>, funds = 0, client: TestClient = server.client) {
  const created = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    ...consents,
  });
  expect(created.status, created.text).toBe(201);
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${created.body.id}&currency=USD&type=INTERNAL_FIAT`,
  );
  const accountId = accounts.body.data[0]?.id as string;
  if (funds > 0) await fund(server, accountId, funds, client.credentials);
  return { customerId: created.body.id, accountId };
}

async function quotesFrom(accountId: string): Promise<number> {
  const [row] = await server.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM quotes WHERE source_account_id = $1",
    [accountId],
  );
  return Number(row?.n);
}

function expectTermsRefused(
  res: { status: number; body: ErrorBody & { details?: unknown } },
  customerId: string,
) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    code: "END_USER_TERMS_NOT_ACCEPTED",
    reason: expect.stringContaining(customerId),
    details: { customerIds: [customerId] },
  });
}

describe("END_USER_TERMS_NOT_ACCEPTED at quote creation", () => {
  test("a source customer with no SERVICE_END_USER_TERMS acceptance: 400, and no quote is stored", async () => {
    const sender = await customer({}, 10_000);
    const receiver = await customer(withEndUserTerms);
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      transfer(sender.accountId, receiver.accountId, 100),
    );
    expectTermsRefused(res, sender.customerId);
    expect(await quotesFrom(sender.accountId)).toBe(0);
  });

  test("a destination customer with no acceptance: 400 naming that customer", async () => {
    const sender = await customer(withEndUserTerms, 10_000);
    const receiver = await customer({});
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      transfer(sender.accountId, receiver.accountId, 100),
    );
    expectTermsRefused(res, receiver.customerId);
    expect(await quotesFrom(sender.accountId)).toBe(0);
  });

  test("another agreement (PRIVACY_POLICY) is not the end-user terms: 400", async () => {
    const sender = await customer(privacyOnly, 10_000);
    const receiver = await customer(withEndUserTerms);
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      transfer(sender.accountId, receiver.accountId, 100),
    );
    expectTermsRefused(res, sender.customerId);
  });

  test("once the acceptance is recorded with PATCH /customers, the same quote is 201", async () => {
    const sender = await customer({}, 10_000);
    const receiver = await customer(withEndUserTerms);
    const body = transfer(sender.accountId, receiver.accountId, 100);
    expect((await server.client.post("/quotes", body)).status).toBe(400);
    const accepted = await server.client.patch(`/customers/${sender.customerId}`, withEndUserTerms);
    expect(accepted.status, accepted.text).toBe(200);
    const res = await server.client.post<Quote>("/quotes", body);
    expect(res.status, res.text).toBe(201);
  });

  test("the deprecated endUserTermsConsent counts as the acceptance", async () => {
    const [terms] = withEndUserTerms.agreementConsents;
    const { type: _, ...consent } = terms as (typeof withEndUserTerms.agreementConsents)[number];
    const sender = await customer({ endUserTermsConsent: consent }, 10_000);
    const receiver = await customer(withEndUserTerms);
    const res = await server.client.post<Quote>(
      "/quotes",
      transfer(sender.accountId, receiver.accountId, 100),
    );
    expect(res.status, res.text).toBe(201);
  });

  test("immediatelyExecute: 400 and no money moves", async () => {
    const sender = await customer({}, 10_000);
    const receiver = await customer(withEndUserTerms);
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      transfer(sender.accountId, receiver.accountId, 100, { immediatelyExecute: true }),
    );
    expectTermsRefused(res, sender.customerId);
    expect(await balanceOf(server, sender.accountId)).toBe(10_000);
    expect(await balanceOf(server, receiver.accountId)).toBe(0);
  });

  test("platform-owned accounts need no acceptance: platform account to an accepting customer is 201", async () => {
    const platformAccounts = await server.client.get<{
      data: { id: string; balance: { currency: { code: string } } }[];
    }>("/platform/internal-accounts?currency=USD");
    const platformAccount = platformAccounts.body.data[0]?.id as string;
    await fund(server, platformAccount, 1_000);
    const receiver = await customer(withEndUserTerms);
    const res = await server.client.post<Quote>(
      "/quotes",
      transfer(platformAccount, receiver.accountId, 100, { immediatelyExecute: true }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe("COMPLETED");
  });

  test("a payout to the customer's own bank account: 400 without the acceptance", async () => {
    const { customerId } = await customer({});
    const { accountId, externalId } = await payer(server.client, { customerId, funds: 10_000 });
    const res = await server.client.post<ErrorBody>("/quotes", payout(accountId, externalId, 100));
    expectTermsRefused(res, customerId);
  });
});

describe("END_USER_TERMS_NOT_ACCEPTED at execution", () => {
  test("an acceptance gone between creation and execution (the API cannot withdraw one; an operator can): 400, the quote stays PENDING, no money moves", async () => {
    const sender = await customer(withEndUserTerms, 10_000);
    const receiver = await customer(withEndUserTerms);
    const quote = await server.client.post<Quote>(
      "/quotes",
      transfer(sender.accountId, receiver.accountId, 100),
    );
    expect(quote.status).toBe(201);
    await server.db.query("DELETE FROM agreement_consents WHERE customer_id = $1", [receiver.customerId]);
    const res = await server.client.post<ErrorBody>(`/quotes/${quote.body.id}/execute`);
    expectTermsRefused(res, receiver.customerId);
    expect((await server.client.get<Quote>(`/quotes/${quote.body.id}`)).body.status).toBe("PENDING");
    expect(await balanceOf(server, sender.accountId)).toBe(10_000);
  });
});

describe("END_USER_TERMS_NOT_ACCEPTED on the deprecated transfers and agent payments", () => {
  test("POST /transfer-out from a customer without the acceptance: 400, nothing created", async () => {
    const { customerId } = await customer({});
    const { accountId, externalId } = await payer(server.client, { customerId, funds: 10_000 });
    const res = await server.client.post<ErrorBody>("/transfer-out", {
      source: { accountId },
      destination: { accountId: externalId },
      amount: 100,
    });
    expectTermsRefused(res, customerId);
    expect(await balanceOf(server, accountId)).toBe(10_000);
    expect(await quotesFrom(accountId)).toBe(0);
  });

  test("POST /transfer-in to a customer without the acceptance: 400, nothing created", async () => {
    const { customerId } = await customer({});
    const { accountId, externalId } = await payer(server.client, { customerId, funds: 0 });
    const res = await server.client.post<ErrorBody>("/transfer-in", {
      source: { accountId: externalId },
      destination: { accountId },
      amount: 100,
    });
    expectTermsRefused(res, customerId);
    expect(await balanceOf(server, accountId)).toBe(0);
    const incoming = await server.client.get<{ data: unknown[] }>(`/transactions?customerId=${customerId}`);
    expect(incoming.body.data).toEqual([]);
  });

  test("an agent's payout quote for a customer without the acceptance: 400", async () => {
    const owner = await customer({}, 10_000);
    const agent = await createAgent(server.client, owner.customerId);
    const redeemed = await redeem(server.client, agent.deviceCode?.code as string);
    expect(redeemed.status, redeemed.text).toBe(200);
    const agentClient = new AgentClient(server.client, redeemed.body.accessToken);
    const external = await agentClient.post<{ id: string }>("/agents/me/external-accounts", {
      currency: "USD",
      accountInfo: bankAccountInfo(),
    });
    expect(external.status, external.text).toBe(201);
    const res = await agentClient.post<ErrorBody>(
      "/agents/me/quotes",
      transfer(owner.accountId, external.body.id, 100),
    );
    expectTermsRefused(res, owner.customerId);
  });
});
