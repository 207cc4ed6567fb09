import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestServer } from "../harness.js";

// PATCH /config umaDomain: the platform's UMA domain, its default, and who may take which domain.

type Config = { umaDomain: string };
type ErrorBody = { code: string; details?: { errors: { field: string; message: string }[] } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const label = (platformId: string) => platformId.replace(/-/g, "").slice(-12);
const unique = () => `pay-${Math.random().toString(36).slice(2, 10)}.example.com`;

describe("the platform's UMA domain", () => {
  test("GET /config answers the default domain: the platform's label under the public host", async () => {
    const client = server.client.as(await server.newPlatform());
    const res = await client.get<Config>("/config");
    expect(res.body.umaDomain).toBe(`${label(client.credentials.platformId)}.localhost`);
  });

  test("a domain set by PATCH /config names the customers created afterwards, and other platforms reach them there", async () => {
    const client = server.client.as(await server.newPlatform());
    const domain = unique();
    const patched = await client.patch<Config>("/config", { umaDomain: domain });
    expect([patched.status, patched.body.umaDomain]).toEqual([200, domain]);
    const customer = await client.post<{ umaAddress: string }>("/customers", {
      customerType: "INDIVIDUAL",
      ...withEndUserTerms,
    });
    expect(customer.body.umaAddress.endsWith(`@${domain}`)).toBe(true);
    const lookup = await server.client.get<{ receiverUmaAddress: string }>(
      `/receiver/uma/${encodeURIComponent(customer.body.umaAddress)}`,
    );
    expect([lookup.status, lookup.body.receiverUmaAddress]).toEqual([200, customer.body.umaAddress]);
  });

  test("null returns to the default domain", async () => {
    const client = server.client.as(await server.newPlatform());
    await client.patch("/config", { umaDomain: unique() });
    const reset = await client.patch<Config>("/config", { umaDomain: null });
    expect(reset.body.umaDomain).toBe(`${label(client.credentials.platformId)}.localhost`);
  });

  test("a domain another platform holds -> 409 CONFLICT", async () => {
    const domain = unique();
    await server.client.as(await server.newPlatform()).patch("/config", { umaDomain: domain });
    const res = await server.client
      .as(await server.newPlatform())
      .patch<ErrorBody>("/config", { umaDomain: domain });
    expect([res.status, res.body.code]).toEqual([409, "CONFLICT"]);
  });

  test.each([
    ["with a port", "pay.example.com:8443"],
    ["in upper case", "Pay.Example.com"],
    ["of one label", "localhost"],
    ["the sandbox counterparty's", "counterparty.sandbox.localhost"],
    ["shaped like another platform's default domain", "0123456789ab.localhost"],
  ])("a domain %s -> 400 INVALID_INPUT naming umaDomain", async (_name, umaDomain) => {
    const res = await server.client.as(await server.newPlatform()).patch<ErrorBody>("/config", { umaDomain });
    expect([res.status, res.body.details?.errors[0]?.field]).toEqual([400, "umaDomain"]);
  });
});
