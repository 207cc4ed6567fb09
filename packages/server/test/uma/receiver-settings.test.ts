import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";
import { type ErrorBody, fund, type Quote } from "../quotes/helpers.js";

// What a platform receives by UMA comes from its `supportedCurrencies` settings: the currencies with
// INCOMING, the amounts per payment, and the payer data senders must give (docs/guides/uma.md).

type Transaction = {
  id: string;
  type: string;
  status: string;
  counterpartyInformation?: Record<string, unknown>;
  failureReason?: string;
};
type Lookup = { lookupId: string; requiredPayerDataFields: { name: string; mandatory: boolean }[] };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const usdSettings = {
  currencyCode: "USD",
  minAmount: 100,
  maxAmount: 10_000,
  requiredCounterpartyFields: [
    { name: "FULL_NAME", mandatory: true },
    { name: "BIRTH_DATE", mandatory: true },
    { name: "NATIONALITY", mandatory: false },
  ],
  enabledTransactionTypes: ["OUTGOING", "INCOMING"],
};

/** A platform with these USD settings and one customer: its client, UMA address and USD account. */
async function receivingPlatform(usd: Record<string, unknown> = usdSettings) {
  const credentials: Credentials = await server.newPlatform();
  const client: TestClient = server.client.as(credentials);
  expect((await client.patch("/config", { supportedCurrencies: [{ ...usdSettings, ...usd }] })).status).toBe(
    200,
  );
  const customer = await client.post<{ id: string; umaAddress: string }>("/customers", {
    customerType: "INDIVIDUAL",
    fullName: "Mei Tanaka",
    ...withEndUserTerms,
  });
  return { client, address: customer.body.umaAddress };
}

function receiveFrom(client: TestClient, sender: string, receiver: string, amount: number) {
  return client.post<Transaction & ErrorBody>("/sandbox/uma/receive", {
    senderUmaAddress: sender,
    receiverUmaAddress: receiver,
    receivingCurrencyCode: "USD",
    receivingCurrencyAmount: amount,
  });
}

async function incomingOf(client: TestClient): Promise<Transaction[]> {
  return (await client.get<{ data: Transaction[] }>("/transactions?type=INCOMING")).body.data;
}

async function senderAccount(): Promise<string> {
  const customer = await server.client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    fullName: "Jonas Berg",
    ...withEndUserTerms,
  });
  const accounts = await server.client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD`,
  );
  const account = accounts.body.data[0]?.id as string;
  await fund(server, account, 1_000_000);
  return account;
}

/** A quote of 1,000 sent to `address` from a funded customer of the file's platform, after a lookup. */
async function quoteTo(address: string, senderCustomerInfo?: Record<string, string>) {
  const lookup = await server.client.get<Lookup>(`/receiver/uma/${encodeURIComponent(address)}`);
  return server.client.post<Quote & ErrorBody>("/quotes", {
    lookupId: lookup.body.lookupId,
    source: { sourceType: "ACCOUNT", accountId: await senderAccount() },
    destination: { destinationType: "UMA_ADDRESS", umaAddress: address, currency: "USD" },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: 1_000,
    ...(senderCustomerInfo ? { senderCustomerInfo } : {}),
  });
}

const COUNTERPARTY = "$success.usd@counterparty.sandbox.localhost";

describe("receiving by UMA follows the platform's currency settings", () => {
  test("the lookup names the payer data the receiver's platform requires, mandatory as configured", async () => {
    const { address } = await receivingPlatform();
    const res = await server.client.get<Lookup>(`/receiver/uma/${encodeURIComponent(address)}`);
    expect(res.status).toBe(200);
    expect(res.body.requiredPayerDataFields).toEqual(
      expect.arrayContaining([
        { name: "FULL_NAME", mandatory: true },
        { name: "BIRTH_DATE", mandatory: true },
        { name: "NATIONALITY", mandatory: false },
      ]),
    );
  });

  test("a quote without a mandatory payer field is 400 INVALID_INPUT naming senderCustomerInfo.<field>", async () => {
    const { address } = await receivingPlatform();
    const res = await quoteTo(address);
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["senderCustomerInfo.BIRTH_DATE"]);
  });

  test("the payer data the sender gives reaches the receiver's INCOMING transaction as counterpartyInformation", async () => {
    const { client, address } = await receivingPlatform();
    const quote = await quoteTo(address, { BIRTH_DATE: "1990-02-03", NATIONALITY: "NO" });
    expect(quote.status).toBe(201);
    const [incoming] = await incomingOf(client);
    expect(incoming?.counterpartyInformation).toEqual({
      IDENTIFIER: expect.stringMatching(/^\$.+@/),
      FULL_NAME: "Jonas Berg",
      BIRTH_DATE: "1990-02-03",
      NATIONALITY: "NO",
    });
  });

  test("a sender giving none of the mandatory payer data is refused: 400 MISSING_MANDATORY_USER_INFO, nothing recorded", async () => {
    const { client, address } = await receivingPlatform();
    const res = await receiveFrom(client, "$no.payer.data@counterparty.sandbox.localhost", address, 1_000);
    expect([res.status, res.body.code]).toEqual([400, "MISSING_MANDATORY_USER_INFO"]);
    expect(res.body.reason).toContain("birthDate");
    expect(await incomingOf(client)).toEqual([]);
  });

  test("amounts below minAmount or above maxAmount are 400 AMOUNT_OUT_OF_RANGE; the bounds themselves are received", async () => {
    const { client, address } = await receivingPlatform();
    for (const amount of [99, 10_001]) {
      const res = await receiveFrom(client, COUNTERPARTY, address, amount);
      expect([amount, res.status, res.body.code]).toEqual([amount, 400, "AMOUNT_OUT_OF_RANGE"]);
    }
    for (const amount of [100, 10_000]) {
      const res = await receiveFrom(client, COUNTERPARTY, address, amount);
      expect([amount, res.status, res.body.status]).toEqual([amount, 200, "COMPLETED"]);
    }
  });

  test("a currency without INCOMING is not received: 400 INVALID_CURRENCY", async () => {
    const { client, address } = await receivingPlatform({ enabledTransactionTypes: ["OUTGOING"] });
    const res = await receiveFrom(client, COUNTERPARTY, address, 1_000);
    expect([res.status, res.body.code]).toEqual([400, "INVALID_CURRENCY"]);
    expect(await incomingOf(client)).toEqual([]);
  });
});

describe("the sandbox counterparty's $travel.rule receiver", () => {
  test("requires name, birth date and nationality: a quote without them is 400, with them it is priced", async () => {
    const address = "$travel.rule@counterparty.sandbox.localhost";
    const lookup = await server.client.get<Lookup>(`/receiver/uma/${encodeURIComponent(address)}`);
    expect(lookup.body.requiredPayerDataFields.filter((f) => f.mandatory).map((f) => f.name)).toEqual([
      "FULL_NAME",
      "BIRTH_DATE",
      "NATIONALITY",
    ]);
    const without = await quoteTo(address);
    expect(without.body.details?.errors.map((e) => e.field)).toEqual([
      "senderCustomerInfo.BIRTH_DATE",
      "senderCustomerInfo.NATIONALITY",
    ]);
    const priced = await quoteTo(address, { BIRTH_DATE: "1990-02-03", NATIONALITY: "NO" });
    expect(priced.status).toBe(201);
  });
});
