import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { agentSetup, customerWithAccount, type ErrorBody, transfer } from "./helpers.js";

type Row = { id: string; type: string; createdAt: string };

let server: TestServer;
let agent: Awaited<ReturnType<typeof agentSetup>>;
let otherAccountId: string;

beforeAll(async () => {
  server = await startServer();
  // The agent's customer is funded (a deposit to its account), then pays another customer of the platform.
  agent = await agentSetup(server, { funds: 10_000 });
  otherAccountId = (await customerWithAccount(server.client, 0)).accountId;
  const paid = await server.client.post(
    "/quotes",
    transfer(agent.accountId, otherAccountId, 100, { immediatelyExecute: true }),
  );
  expect(paid.status, paid.text).toBe(201);
});
afterAll(() => server.close());

const list = async (query: string) => {
  const res = await agent.agentClient.get<{ data: Row[] }>(`/agents/me/transactions?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};

describe("GET /agents/me/transactions takes the hosted filters of GET /transactions", () => {
  test("account filters select the agent's customer's rows only: its deposit is received, its transfer is sent", async () => {
    expect((await list(`accountIdentifier=${agent.accountId}`)).map((r) => r.type).sort()).toEqual([
      "INCOMING",
      "OUTGOING",
    ]);
    expect((await list(`senderAccountIdentifier=${agent.accountId}`)).map((r) => r.type)).toEqual([
      "OUTGOING",
    ]);
    expect((await list(`receiverAccountIdentifier=${agent.accountId}`)).map((r) => r.type)).toEqual([
      "INCOMING",
    ]);
    // The other customer's incoming row exists on the platform, but is not the agent's customer's.
    expect(await list(`accountIdentifier=${otherAccountId}`)).toEqual([]);
    expect((await list(`receiverAccountIdentifier=${otherAccountId}`)).map((r) => r.type)).toEqual([
      "OUTGOING",
    ]);
  });

  test("reference, startDate and endDate filter as on GET /transactions (inclusive instants, plain dates are UTC days)", async () => {
    const rows = await list("sortOrder=asc");
    const [first, last] = [rows[0]?.createdAt as string, rows.at(-1)?.createdAt as string];
    expect(await list("reference=RF-NOTHING")).toEqual([]);
    expect(await list(`startDate=${encodeURIComponent(first)}&endDate=${encodeURIComponent(last)}`)).toEqual(
      await list(""),
    );
    const after = new Date(Date.parse(last) + 1).toISOString();
    expect(await list(`startDate=${encodeURIComponent(after)}`)).toEqual([]);
    const dayBefore = new Date(Date.parse(first) - 86_400_000).toISOString().slice(0, 10);
    expect(await list(`endDate=${dayBefore}`)).toEqual([]);
  });

  test("a bad date or an unknown parameter -> 400 INVALID_INPUT on the parameter, as GET /transactions answers", async () => {
    for (const query of ["startDate=2027-05-10T10:00:00", "endDate=yesterday", "cardId=CardTransaction:x"]) {
      const field = query.split("=")[0];
      const res = await agent.agentClient.get<ErrorBody>(`/agents/me/transactions?${query}`);
      expect([res.status, res.body.code], query).toEqual([400, "INVALID_INPUT"]);
      expect(res.body.details?.errors.map((e) => e.field)).toEqual([field]);
      if (field !== "cardId") {
        const platform = await server.client.get<ErrorBody>(`/transactions?${query}`);
        expect(platform.body).toEqual(res.body);
      }
    }
  });
});
