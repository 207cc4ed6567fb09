import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestServer } from "../harness.js";
import { fund, type Quote, transfer } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function accountOf(body: Record<string, unknown>): Promise<string> {
  const customer = await server.client.post<{ id: string }>("/customers", { ...withEndUserTerms, ...body });
  const accounts = await server.client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD`,
  );
  return accounts.body.data[0]?.id ?? "";
}

describe("counterparty on internal transfers (statement rule 9, Regulation E)", () => {
  test("each side's transaction names the other party: the customer's fullName or business legalName", async () => {
    const ada = await accountOf({ customerType: "INDIVIDUAL", fullName: "Ada Lovelace" });
    const acme = await accountOf({ customerType: "BUSINESS", businessInfo: { legalName: "Acme LLC" } });
    await fund(server, ada, 1_000);
    const quote = await server.client.post<Quote>(
      "/quotes",
      transfer(ada, acme, 250, { immediatelyExecute: true }),
    );
    expect(quote.status).toBe(201);
    const outgoing = await server.client.get<{ counterpartyInformation: unknown; quoteId: string }>(
      `/transactions/${quote.body.transactionId}`,
    );
    expect(outgoing.body.counterpartyInformation).toEqual({ name: "Acme LLC", accountId: acme });
    const incoming = await server.client.get<{ data: { counterpartyInformation: unknown }[] }>(
      `/transactions?accountIdentifier=${acme}&type=INCOMING`,
    );
    expect(incoming.body.data[0]?.counterpartyInformation).toEqual({ name: "Ada Lovelace", accountId: ada });
  });

  test("a party without a name on file is named by its account id only", async () => {
    const a = await accountOf({ customerType: "INDIVIDUAL", fullName: "Named Sender" });
    const b = await accountOf({ customerType: "INDIVIDUAL" });
    await fund(server, a, 100);
    const quote = await server.client.post<Quote>(
      "/quotes",
      transfer(a, b, 10, { immediatelyExecute: true }),
    );
    const outgoing = await server.client.get<{ counterpartyInformation: unknown }>(
      `/transactions/${quote.body.transactionId}`,
    );
    expect(outgoing.body.counterpartyInformation).toEqual({ accountId: b });
  });
});
