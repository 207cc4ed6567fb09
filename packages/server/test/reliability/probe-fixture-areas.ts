import { expect } from "vitest";
import type { TestClient } from "../harness.js";
import { enableAndProvision, linkProvider, mintBody, register } from "../stablecoins/helpers.js";

// Platform A's ids in the issue-8 areas (stablecoins, agents, invitations, strong customer authentication),
// made through the API like the rest of the tenancy probe's fixture.

export interface AreaIds {
  stablecoin: string;
  providerAccount: string;
  stablecoinOperation: string;
  agent: string;
  invitationCode: string;
  bulkJob: string;
}

function created<T>(res: { status: number; text: string; body: unknown }, status = 201): T {
  expect(res.status, res.text).toBe(status);
  return res.body as T;
}

export async function areaIds(client: TestClient, funded: { customerId: string; accountId: string }) {
  const provider = await linkProvider(client);
  const coin = await register(client);
  await enableAndProvision(client, coin.id);
  const mint = created<{ id: string }>(
    await client.post(`/stablecoins/${coin.id}/mints`, mintBody(funded.accountId, provider.id, "5000000")),
  );

  const { agent } = created<{ agent: { id: string } }>(
    await client.post("/agents", {
      customerId: funded.customerId,
      name: "Probe bot",
      policy: {
        permissions: ["VIEW_TRANSACTIONS"],
        defaultExecutionMode: "APPROVAL_REQUIRED",
        spendingLimits: { currency: "USD", perTransactionLimit: 0 },
      },
    }),
  );

  created(await client.patch("/config", { invitationBaseUrl: "https://invite.example/i" }), 200);
  const inviter = created<{ umaAddress: string }>(await client.get(`/customers/${funded.customerId}`), 200);
  const invitation = created<{ code: string }>(
    await client.post("/invitations", { inviterUma: inviter.umaAddress }),
  );

  const scaCustomer = created<{ id: string }>(
    await client.post("/customers", {
      customerType: "INDIVIDUAL",
      region: "DE",
      email: "probe-sca@example.com",
    }),
  );
  const login = created<{ challengeId: string }>(
    await client.post(`/sca/login/start?customerId=${scaCustomer.id}`, { factor: "SMS_OTP" }),
    200,
  );
  created(
    await client.post(`/sca/login/complete?customerId=${scaCustomer.id}`, {
      factor: "SMS_OTP",
      endUserIpAddress: "203.0.113.42",
      challengeId: login.challengeId,
      code: "000000",
    }),
    200,
  );

  // A bulk customer import (issue 21), its CSV sent as multipart/form-data.
  const boundary = "----paysvc-probe";
  const bulk = created<{ jobId: string }>(
    await client.request("POST", "/customers/bulk/csv", undefined, {
      rawBody: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.csv"\r\n\r\ncustomerType\nINDIVIDUAL\r\n--${boundary}--\r\n`,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    }),
    202,
  );

  return {
    stablecoin: coin.id,
    providerAccount: provider.id,
    stablecoinOperation: mint.id,
    agent: agent.id,
    invitationCode: invitation.code,
    bulkJob: bulk.jobId,
  } satisfies AreaIds;
}
