import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";

type Account = { id: string; customerId?: string; totalBalance: { amount: number } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("rule-based accounts (statement rule 3)", () => {
  test("money received through a rule-based account lands on its owner's account", async () => {
    const customer = await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
    const own = await server.client.get<{ data: Account[] }>(
      `/customers/internal-accounts?customerId=${customer.body.id}`,
    );
    const ownId = own.body.data[0]?.id ?? "";
    const ruleBased = await server.client.post<Account>(
      `/sandbox/customers/${customer.body.id}/rule-based-accounts`,
    );
    expect(ruleBased.status).toBe(201);
    expect(ruleBased.body.customerId).toBe(customer.body.id);
    const deposit = await server.client.post<{
      id: string;
      destination: { accountId: string };
      receivedThroughAccountId: string;
    }>(`/sandbox/internal-accounts/${ruleBased.body.id}/ach-deposit`, { amount: 4_200 });
    expect(deposit.body.destination.accountId).toBe(ownId);
    expect(deposit.body.receivedThroughAccountId).toBe(ruleBased.body.id);
    expect((await server.client.get<Account>(`/internal-accounts/${ownId}`)).body.totalBalance.amount).toBe(
      4_200,
    );
    expect(
      (await server.client.get<Account>(`/internal-accounts/${ruleBased.body.id}`)).body.totalBalance.amount,
    ).toBe(0);
    const ownChanges = await server.db.query("SELECT amount FROM balance_changes WHERE account_id = $1", [
      ownId,
    ]);
    expect(ownChanges).toEqual([{ amount: 4_200 }]);
    const ruleChanges = await server.db.query("SELECT amount FROM balance_changes WHERE account_id = $1", [
      ruleBased.body.id,
    ]);
    expect(ruleChanges).toEqual([]);
  });

  test("a rule-based account for a currency the customer holds no account in -> 409 CONFLICT", async () => {
    const customer = await server.client.post<{ id: string }>("/customers", { customerType: "INDIVIDUAL" });
    const res = await server.client.post(`/sandbox/customers/${customer.body.id}/rule-based-accounts`, {
      currency: "EUR",
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CONFLICT" });
  });

  test("an unknown customer -> 404 CUSTOMER_NOT_FOUND", async () => {
    const res = await server.client.post("/sandbox/customers/Customer:nope/rule-based-accounts");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "CUSTOMER_NOT_FOUND" });
  });
});
