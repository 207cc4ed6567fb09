import type { Static } from "typebox";
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from "vitest";
import type * as directory from "../../server/src/uma/directory-routes.js";
import type * as uma from "../../server/src/uma/schemas.js";
import { startServer, type TestServer } from "../../server/test/harness.js";
import type * as sdk from "../src/index.js";
import { BadRequestError, NotFoundError, PaysvcClient } from "../src/index.js";
import { withEndUserTerms } from "./end-user-terms.js";

// receiver.lookupUma, umaProviders and vasps (issue 19) against the real server and its built-in sandbox
// counterparty VASP (docs/guides/uma.md).

const CP = "counterparty.sandbox.localhost";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function client() {
  return new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
}

test("the UMA wire types equal the server's TypeBox schemas", () => {
  expectTypeOf<sdk.ReceiverUmaLookupResponse>().toEqualTypeOf<Static<typeof uma.ReceiverUmaLookupResponse>>();
  expectTypeOf<sdk.UmaLookupParams>().toEqualTypeOf<Static<typeof uma.LookupQuery>>();
  expectTypeOf<sdk.UmaProvider>().toEqualTypeOf<Static<typeof directory.UmaProvider>>();
  expectTypeOf<sdk.UmaProviderListResponse>().toEqualTypeOf<
    Static<typeof directory.UmaProviderListResponse>
  >();
  expectTypeOf<sdk.UmaProviderListParams>().toEqualTypeOf<Static<typeof directory.UmaProviderQuery>>();
  expectTypeOf<sdk.Vasp>().toEqualTypeOf<Static<typeof directory.Vasp>>();
  expectTypeOf<sdk.VaspListResponse>().toEqualTypeOf<Static<typeof directory.VaspListResponse>>();
  expectTypeOf<sdk.VaspListParams>().toEqualTypeOf<Static<typeof directory.VaspQuery>>();
});

describe("receiver.lookupUma", () => {
  test("a lookup of another platform's customer answers its currencies and a lookupId, with the request id", async () => {
    const receiving = await client();
    const sending = await client();
    const receiver = await receiving.customers.create({ customerType: "INDIVIDUAL", ...withEndUserTerms });
    const sender = await sending.customers.create({ customerType: "INDIVIDUAL", ...withEndUserTerms });
    const found = await sending.receiver.lookupUma(receiver.umaAddress, {
      senderUmaAddress: sender.umaAddress,
      customerId: sender.id,
    });
    expect(found.lookupId).toMatch(/^Lookup:/);
    expect(found.receiverUmaAddress).toBe(receiver.umaAddress);
    expect(found.supportedCurrencies.map((c) => c.currency.code)).toEqual(["USD"]);
    expect(found.requiredPayerDataFields).toContainEqual({ name: "FULL_NAME", mandatory: false });
    expect(found.lastResponse.requestId).toMatch(/^req_/);
  });

  test("the counterparty's $success.<currency> receives that currency", async () => {
    const found = await (await client()).receiver.lookupUma(`$success.eur@${CP}`);
    expect(found.supportedCurrencies[0]?.currency.code).toBe("EUR");
  });

  test.each([
    [`$nobody@${CP}`, "NotFoundError", "UMA_NOT_FOUND", NotFoundError],
    [`$success@expired-cert.${CP}`, "BadRequestError", "CERT_CHAIN_EXPIRED", BadRequestError],
    ["$alice", "BadRequestError", "INVALID_UMA_ADDRESS", BadRequestError],
  ] as const)(
    "a failed lookup of %s rejects with a %s carrying the catalogue code %s",
    async (address, _name, code, type) => {
      const paysvc = await client();
      const failure = await paysvc.receiver.lookupUma(address).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(type);
      expect(failure).toMatchObject({ code });
    },
  );

  test("a customerId of no customer of the platform rejects with a NotFoundError", async () => {
    const paysvc = await client();
    const failure = await paysvc.receiver
      .lookupUma(`$success@${CP}`, { customerId: "Customer:019542f5-b3e7-7d02-8000-000000000001" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NotFoundError);
  });
});

describe("umaProviders and vasps", () => {
  test("umaProviders.list filters by currency; listAll walks every page and finds the sandbox counterparty", async () => {
    const paysvc = await client();
    const page = await paysvc.umaProviders.list({ currencyCode: "EUR", limit: 2 });
    expect(page.data.length).toBeLessThanOrEqual(2);
    expect(page.data.every((p) => p.supportedCurrencies.some((c) => c.code === "EUR"))).toBe(true);
    const all = [];
    for await (const provider of paysvc.umaProviders.listAll({ limit: 50, sortOrder: "asc" }))
      all.push(provider);
    expect(all.length).toBe((await paysvc.umaProviders.list()).totalCount);
    expect(all.find((p) => p.domain === CP)?.name).toBe("paysvc sandbox counterparty");
  });

  test("vasps.listAll names each VASP with the base URL of its UMA endpoints", async () => {
    const paysvc = await client();
    const all = [];
    for await (const vasp of paysvc.vasps.listAll({ limit: 50 })) all.push(vasp);
    expect(all).toContainEqual({
      vaspName: "paysvc sandbox counterparty",
      url: `${server.origin}/uma/${CP}`,
    });
    const first = await paysvc.vasps.list({ limit: 1 });
    expect([first.data.length, first.hasMore, typeof first.nextCursor]).toEqual([1, true, "string"]);
  });
});
