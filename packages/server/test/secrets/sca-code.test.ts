import { createHash, createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { IP, platformClient, type ScaLoginStart, scaCustomer } from "../sca/helpers.js";

// Issue 16 item 4, for SCA OTP codes as for wallet OTPs: an unkeyed SHA-256 of a 6-digit code is found by
// trying the 10^6 codes; the stored value is now an HMAC under a sealed key of the challenge's own.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const start = (client: TestClient, customerId: string) =>
  client.post<ScaLoginStart>(`/sca/login/start?customerId=${customerId}`, { factor: "SMS_OTP" });
const complete = (client: TestClient, customerId: string, challengeId: string | null, code: string) =>
  client.post<{ code: string }>(`/sca/login/complete?customerId=${customerId}`, {
    factor: "SMS_OTP",
    endUserIpAddress: IP,
    challengeId,
    code,
  });

describe("SCA OTP codes at rest", () => {
  test("the stored value is no digest of the code: trying every 6-digit code finds nothing; with the master key it is the code's HMAC, and the code logs in", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client);
    const started = await client.post<ScaLoginStart>(`/sca/login/start?customerId=${customerId}`, {
      factor: "SMS_OTP",
    });
    expect(started.status, started.text).toBe(200);
    const [row] = await server.db.query<{ id: string; code_hash: string; code_key: string }>(
      "SELECT id, code_hash, code_key FROM sca_challenges WHERE id = $1",
      [started.body.challengeId],
    );
    if (!row) throw new Error("no challenge row");
    expect(row.code_key).toMatch(/^sealed:v1:/);
    // The attack that worked before: every 6-digit code, hashed as the digest was made.
    let found: string | undefined;
    for (let n = 0; n < 1_000_000 && !found; n++) {
      const code = String(n).padStart(6, "0");
      if (createHash("sha256").update(code).digest("hex") === row.code_hash) found = code;
    }
    expect(found).toBeUndefined();
    const secrets = server.deps.secrets;
    if (!secrets) throw new Error("the test app has no secrets box");
    const key = await secrets.open("sca-code-key", row.id, row.code_key);
    expect(createHmac("sha256", key).update("000000").digest("hex")).toBe(row.code_hash);
    const done = await complete(client, customerId, started.body.challengeId, "000000");
    expect(done.status, done.text).toBe(200);
  });

  test("a sealed code key copied to another challenge does not open there: that code is refused", async () => {
    const client = await platformClient(server);
    const { customerId } = await scaCustomer(client);
    const first = await start(client, customerId);
    const other = await scaCustomer(client);
    const second = await start(client, other.customerId);
    await server.db.query(
      `UPDATE sca_challenges SET code_key = (SELECT code_key FROM sca_challenges WHERE id = $1),
         code_hash = (SELECT code_hash FROM sca_challenges WHERE id = $1) WHERE id = $2`,
      [first.body.challengeId, second.body.challengeId],
    );
    const res = await complete(client, other.customerId, second.body.challengeId, "000000");
    // Answered as a wrong code is: the sandbox code proves nothing under a key that does not open.
    const wrong = await complete(client, customerId, first.body.challengeId, "123456");
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect([res.status, res.body.code]).toEqual([wrong.status, wrong.body.code]);
  });
});
