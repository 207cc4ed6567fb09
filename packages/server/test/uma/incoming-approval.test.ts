import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import type { ErrorBody } from "../quotes/helpers.js";
import { eventually, platformWithReceiver } from "../webhooks/helpers.js";
import type { Receiver, Responder } from "../webhooks/receiver.js";

// The platform approves each incoming UMA payment by its answer to INCOMING_PAYMENT.PENDING, delivered
// while the sender's pay request waits (docs/guides/uma.md "Approving incoming payments").

type Transaction = {
  id: string;
  status: string;
  failureReason?: string;
  counterpartyInformation?: Record<string, unknown>;
};

let server: TestServer;
let slowServer: TestServer;
beforeAll(async () => {
  server = await startServer();
  // The approval waits at most the webhook timeouts (capped at 3 s): short here, so a slow answer is late.
  slowServer = await startServer({ webhookTimeouts: { connectTimeoutMs: 200, totalTimeoutMs: 300 } });
});
afterAll(async () => {
  await server.close();
  await slowServer.close();
});

const isPendingIncoming = (body: string) => body.includes('"type":"INCOMING_PAYMENT.PENDING"');

/** Answers INCOMING_PAYMENT.PENDING with `approval`; every other event with 200. */
function approvingWith(approval: Responder): Responder {
  return (n, res, received) =>
    isPendingIncoming(received.body) ? approval(n, res, received) : res.end("ok");
}

const answer =
  (status: number, body: unknown = ""): Responder =>
  (_n, res) => {
    res.statusCode = status;
    res.setHeader("content-type", "application/json");
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };

async function payeeOn(client: TestClient): Promise<string> {
  const customer = await client.post<{ umaAddress: string }>("/customers", {
    customerType: "INDIVIDUAL",
    fullName: "Amara Okafor",
    ...withEndUserTerms,
  });
  return customer.body.umaAddress;
}

async function receive(on: TestServer, approval: Responder) {
  const { client, receiver } = await platformWithReceiver(on, approvingWith(approval));
  const res = await client.post<Transaction & ErrorBody>("/sandbox/uma/receive", {
    senderUmaAddress: "$success.usd@counterparty.sandbox.localhost",
    receiverUmaAddress: await payeeOn(client),
    receivingCurrencyCode: "USD",
    receivingCurrencyAmount: 2_500,
  });
  const [incoming] = (await client.get<{ data: Transaction[] }>("/transactions?type=INCOMING")).body.data;
  return { res, incoming, receiver, client };
}

const eventTypes = (receiver: Receiver) =>
  receiver.received
    .map((r) => (JSON.parse(r.body) as { type: string }).type)
    .filter((t) => t.startsWith("INCOMING"));

describe("approving incoming UMA payments", () => {
  test("a 200 answer accepts: the payment settles COMPLETED after its PENDING event, which carries the payer's data", async () => {
    const { res, receiver } = await receive(server, answer(200, { receiverCustomerInfo: {} }));
    expect([res.status, res.body.status]).toEqual([200, "COMPLETED"]);
    const pending = receiver.received.find((r) => isPendingIncoming(r.body));
    const data = (JSON.parse(pending?.body ?? "{}") as { data: Transaction }).data;
    expect([data.status, data.counterpartyInformation?.FULL_NAME]).toEqual([
      "PENDING",
      "Sandbox Counterparty",
    ]);
    expect(JSON.stringify(data)).not.toContain("preimage");
    await eventually(() =>
      expect(eventTypes(receiver)).toEqual(["INCOMING_PAYMENT.PENDING", "INCOMING_PAYMENT.COMPLETED"]),
    );
  });

  test("a 403 answer refuses the sender: 400 SENDER_NOT_ACCEPTED with the platform's reason, the payment FAILED COMPLIANCE_REJECTED", async () => {
    const { res, incoming, receiver } = await receive(
      server,
      answer(403, { code: "FORBIDDEN", reason: "RESTRICTED_JURISDICTION" }),
    );
    expect([res.status, res.body.code]).toEqual([400, "SENDER_NOT_ACCEPTED"]);
    expect(res.body.reason).toContain("RESTRICTED_JURISDICTION");
    expect([incoming?.status, incoming?.failureReason]).toEqual(["FAILED", "COMPLIANCE_REJECTED"]);
    await eventually(() =>
      expect(eventTypes(receiver)).toEqual(["INCOMING_PAYMENT.PENDING", "INCOMING_PAYMENT.FAILED"]),
    );
  });

  test("a 422 answer asks for more payer data: 400 MISSING_MANDATORY_USER_INFO naming the platform's requiredFields", async () => {
    const { res, incoming } = await receive(server, answer(422, { requiredFields: ["TAX_ID", "ID_NUMBER"] }));
    expect([res.status, res.body.code]).toEqual([400, "MISSING_MANDATORY_USER_INFO"]);
    expect(res.body.reason).toContain("TAX_ID, ID_NUMBER");
    expect([incoming?.status, incoming?.failureReason]).toEqual(["FAILED", "COMPLIANCE_REJECTED"]);
  });

  test("an answer that is no decision (500) fails the payment PAYMENT_APPROVAL_WEBHOOK_ERROR; the event is retried later", async () => {
    const { res, incoming, client } = await receive(server, answer(500));
    expect([res.status, res.body.code]).toEqual([424, "PAYREQ_REQUEST_FAILED"]);
    expect([incoming?.status, incoming?.failureReason]).toEqual(["FAILED", "PAYMENT_APPROVAL_WEBHOOK_ERROR"]);
    const deliveries = await client.get<{ data: { eventType: string; state: string }[] }>(
      "/webhooks/deliveries?limit=50",
    );
    const pending = deliveries.body.data.filter((d) => d.eventType === "INCOMING_PAYMENT.PENDING");
    expect(pending.map((d) => d.state)).toEqual(["PENDING"]);
  });

  test("an answer later than the approval timeout fails the payment PAYMENT_APPROVAL_TIMED_OUT", async () => {
    const late: Responder = (_n, res) => {
      setTimeout(() => res.end("ok"), 2_000).unref();
    };
    const { res, incoming } = await receive(slowServer, late);
    expect([res.status, res.body.code]).toEqual([424, "PAYREQ_REQUEST_FAILED"]);
    expect([incoming?.status, incoming?.failureReason]).toEqual(["FAILED", "PAYMENT_APPROVAL_TIMED_OUT"]);
  });
});
