import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { agentSetup, bankAccountInfo, type ErrorBody } from "./helpers.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type ExternalAccount = { id: string; customerId: string; currency: string };

async function agentWithAccount(policy: Record<string, unknown> = {}) {
  const setup = await agentSetup(server, { funds: 0 });
  const created = await setup.agentClient.post<ExternalAccount>("/agents/me/external-accounts", {
    currency: "USD",
    accountInfo: bankAccountInfo(),
  });
  expect(created.status, created.text).toBe(201);
  if (Object.keys(policy).length > 0)
    expect((await server.client.patch(`/agents/${setup.agent.id}/policy`, policy)).status).toBe(200);
  return { ...setup, externalId: created.body.id };
}

describe("GET /agents/me/external-accounts/{externalAccountId}", () => {
  test("the agent reads one of its customer's external accounts", async () => {
    const { agentClient, externalId, customerId } = await agentWithAccount();
    const res = await agentClient.get<ExternalAccount>(`/agents/me/external-accounts/${externalId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: externalId, customerId, currency: "USD" });
  });

  test("another customer's account, a malformed and an unknown id are the same 404 ACCOUNT_NOT_FOUND", async () => {
    const { agentClient } = await agentWithAccount();
    const other = await agentWithAccount();
    for (const id of [
      other.externalId,
      "ExternalAccount:x",
      "ExternalAccount:01900000-0000-7000-8000-000000000000",
    ]) {
      const res = await agentClient.get<ErrorBody>(`/agents/me/external-accounts/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
    }
  });

  test("reading its customer's external account needs no permission (the hosted permissions have none for reads)", async () => {
    const { agentClient, externalId } = await agentWithAccount({ permissions: [] });
    const res = await agentClient.get<ErrorBody>(`/agents/me/external-accounts/${externalId}`);
    expect(res.status, res.text).toBe(200);
  });
});

describe("DELETE /agents/me/external-accounts/{externalAccountId}", () => {
  test("the agent deletes one of its customer's external accounts: 204, then 404 ACCOUNT_NOT_FOUND", async () => {
    const { agentClient, externalId } = await agentWithAccount();
    const res = await agentClient.client.delete(`/agents/me/external-accounts/${externalId}`, {
      auth: null,
      headers: { authorization: `Bearer ${agentClient.accessToken}` },
    });
    expect(res.status, res.text).toBe(204);
    const read = await agentClient.get<ErrorBody>(`/agents/me/external-accounts/${externalId}`);
    expect([read.status, read.body.code]).toEqual([404, "ACCOUNT_NOT_FOUND"]);
    const platform = await server.client.get(`/customers/external-accounts/${externalId}`);
    expect(platform.status).toBe(404);
  });

  test("another customer's account is 404 ACCOUNT_NOT_FOUND and stays", async () => {
    const { agentClient } = await agentWithAccount();
    const other = await agentWithAccount();
    const res = await agentClient.client.delete<ErrorBody>(
      `/agents/me/external-accounts/${other.externalId}`,
      {
        auth: null,
        headers: { authorization: `Bearer ${agentClient.accessToken}` },
      },
    );
    expect([res.status, res.body.code]).toEqual([404, "ACCOUNT_NOT_FOUND"]);
    expect((await server.client.get(`/customers/external-accounts/${other.externalId}`)).status).toBe(200);
  });

  test("an agent without MANAGE_EXTERNAL_ACCOUNTS is 403 FORBIDDEN and the account stays", async () => {
    const { agentClient, externalId } = await agentWithAccount({ permissions: ["VIEW_TRANSACTIONS"] });
    const res = await agentClient.client.delete<ErrorBody>(`/agents/me/external-accounts/${externalId}`, {
      auth: null,
      headers: { authorization: `Bearer ${agentClient.accessToken}` },
    });
    expect([res.status, res.body.code]).toEqual([403, "FORBIDDEN"]);
    expect((await agentClient.get(`/agents/me/external-accounts/${externalId}`)).status).toBe(200);
  });
});
