import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";

type Config = { feeConfigs: Record<string, unknown>[]; updatedAt: string };
type ErrorBody = { code: string; details?: { errors: { field: string; message: string }[] } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("platform fees: PATCH /config feeConfigs, per rail (docs/decisions.md)", () => {
  test("a new platform has no fees: GET /config feeConfigs is []", async () => {
    const res = await server.client.get<Config>("/config");
    expect(res.status).toBe(200);
    expect(res.body.feeConfigs).toEqual([]);
  });

  test("feeConfigs takes a basis-points rate, a fixed amount, or both, per rail; GET /config returns them", async () => {
    const feeConfigs = [
      { rail: "INTERNAL", variableRateBps: 25, fixedAmount: 10 },
      { rail: "ACH", fixedAmount: 50 },
      { rail: "ACH_SAME_DAY", variableRateBps: 15 },
    ];
    const res = await server.client.patch<Config>("/config", { feeConfigs });
    expect(res.status).toBe(200);
    expect(res.body.feeConfigs).toEqual(feeConfigs);
    expect((await server.client.get<Config>("/config")).body.feeConfigs).toEqual(feeConfigs);
  });

  test("feeConfigs replaces the whole list; [] removes every fee; other fields leave it unchanged", async () => {
    await server.client.patch("/config", { feeConfigs: [{ rail: "WIRE", fixedAmount: 2_500 }] });
    await server.client.patch("/config", { name: "renamed" });
    expect((await server.client.get<Config>("/config")).body.feeConfigs).toEqual([
      { rail: "WIRE", fixedAmount: 2_500 },
    ]);
    const cleared = await server.client.patch<Config>("/config", { feeConfigs: [] });
    expect(cleared.body.feeConfigs).toEqual([]);
  });

  test("fee configuration is per platform", async () => {
    const other = await server.newPlatform();
    await server.client.patch("/config", { feeConfigs: [{ rail: "INTERNAL", fixedAmount: 1 }] });
    expect((await server.client.get<Config>("/config", { auth: other })).body.feeConfigs).toEqual([]);
  });

  test.each<[string, unknown, string[]]>([
    ["an entry with neither rate nor fixed amount", [{ rail: "ACH" }], ["feeConfigs[0]"]],
    [
      "the same rail twice",
      [
        { rail: "ACH", fixedAmount: 1 },
        { rail: "ACH", fixedAmount: 2 },
      ],
      ["feeConfigs[1].rail"],
    ],
    ["an unknown rail", [{ rail: "CARRIER_PIGEON", fixedAmount: 1 }], ["feeConfigs[0].rail"]],
    [
      "a rate above 10,000 bps",
      [{ rail: "ACH", variableRateBps: 10_001 }],
      ["feeConfigs[0].variableRateBps"],
    ],
    ["a fractional rate", [{ rail: "ACH", variableRateBps: 1.5 }], ["feeConfigs[0].variableRateBps"]],
    ["a negative fixed amount", [{ rail: "ACH", fixedAmount: -1 }], ["feeConfigs[0].fixedAmount"]],
    ["an unknown field", [{ rail: "ACH", fixedAmount: 1, currency: "USD" }], ["feeConfigs[0].currency"]],
    ["not an array", { rail: "ACH" }, ["feeConfigs"]],
  ])("%s -> 400 INVALID_INPUT naming the field", async (_name, feeConfigs, fields) => {
    const before = await server.client.get<Config>("/config");
    const res = await server.client.patch<ErrorBody>("/config", { feeConfigs });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(fields);
    expect((await server.client.get<Config>("/config")).body).toEqual(before.body);
  });

  test("a VIEW-only token -> 403 FORBIDDEN on PATCH /config feeConfigs", async () => {
    const token = await server.client.post<{ id: string; clientId: string; clientSecret: string }>(
      "/tokens",
      {
        name: "viewer",
        permissions: ["VIEW"],
      },
    );
    const viewer = { ...server.platform, tokenId: token.body.id, ...token.body };
    const res = await server.client.patch("/config", { feeConfigs: [] }, { auth: viewer });
    expect(res.status).toBe(403);
  });
});
