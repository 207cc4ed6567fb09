import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { BadRequestError, NotFoundError, PaysvcClient } from "../src/index.js";

const BASE = "https://invite.example.com/i";

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer();
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
  await paysvc.config.update({ invitationBaseUrl: BASE });
});
afterAll(() => server.close());

/** A customer holding a fresh UMA address. */
async function inviterUma(client = paysvc): Promise<string> {
  const uma = `$sdk${randomUUID().slice(0, 8)}@example.com`;
  await client.customers.create({ customerType: "INDIVIDUAL", umaAddress: uma });
  return uma;
}

describe("invitations through the SDK", () => {
  test("create answers 201 with a PENDING invitation whose url is the base url and its code", async () => {
    const uma = await inviterUma();
    const invitation = await paysvc.invitations.create({ inviterUma: uma, amountToSend: 2_500 });
    expect(invitation.lastResponse.status).toBe(201);
    expect(invitation).toMatchObject({
      inviterUma: uma,
      status: "PENDING",
      url: `${BASE}/${invitation.code}`,
      amountToSend: { amount: 2_500, currency: { code: "USD" } },
    });
    expect(await paysvc.invitations.get(invitation.code)).toEqual({ ...invitation });
  });

  test("claim makes it CLAIMED with the invitee's UMA; a second claim is BadRequestError INVITATION_ALREADY_CLAIMED", async () => {
    const invitation = await paysvc.invitations.create({ inviterUma: await inviterUma() });
    const claimed = await paysvc.invitations.claim(invitation.code, { inviteeUma: "$bob@other.example" });
    expect(claimed).toMatchObject({ status: "CLAIMED", inviteeUma: "$bob@other.example" });
    const again = paysvc.invitations.claim(invitation.code, { inviteeUma: "$eve@other.example" });
    await expect(again).rejects.toBeInstanceOf(BadRequestError);
    await expect(again).rejects.toMatchObject({ status: 400, code: "INVITATION_ALREADY_CLAIMED" });
  });

  test("cancel makes it CANCELLED; claiming it then is BadRequestError INVITATION_CANCELLED", async () => {
    const invitation = await paysvc.invitations.create({ inviterUma: await inviterUma() });
    expect(await paysvc.invitations.cancel(invitation.code)).toMatchObject({ status: "CANCELLED" });
    await expect(
      paysvc.invitations.claim(invitation.code, { inviteeUma: "$bob@other.example" }),
    ).rejects.toMatchObject({ status: 400, code: "INVITATION_CANCELLED" });
  });

  test("an unknown code, or another platform's, is NotFoundError INVITATION_NOT_FOUND", async () => {
    const invitation = await paysvc.invitations.create({ inviterUma: await inviterUma() });
    const other = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
    for (const [client, code] of [
      [other, invitation.code],
      [paysvc, "no-such-code"],
    ] as const) {
      const read = client.invitations.get(code);
      await expect(read).rejects.toBeInstanceOf(NotFoundError);
      await expect(read).rejects.toMatchObject({ code: "INVITATION_NOT_FOUND" });
    }
  });

  test("a platform without invitationBaseUrl gets BadRequestError INVITATIONS_NOT_CONFIGURED", async () => {
    const other = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
    const created = other.invitations.create({ inviterUma: await inviterUma(other) });
    await expect(created).rejects.toBeInstanceOf(BadRequestError);
    await expect(created).rejects.toMatchObject({ status: 400, code: "INVITATIONS_NOT_CONFIGURED" });
  });
});
