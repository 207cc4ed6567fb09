import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { currencySettings, startServer, type TestServer } from "../harness.js";
import { type ErrorBody, fund, newAccount, type Quote, transfer } from "./helpers.js";

let server: TestServer;
let a: string;
let b: string;
let eurA: string;
let eurB: string;
beforeAll(async () => {
  server = await startServer();
  await server.client.patch("/config", { supportedCurrencies: currencySettings("USD", "EUR", "USDB") });
  [a, b, eurA, eurB] = await Promise.all([
    newAccount(server),
    newAccount(server),
    newAccount(server, { currency: "EUR" }),
    newAccount(server, { currency: "EUR" }),
  ]);
});
afterAll(() => server.close());

const setFees = async (feeConfigs: Record<string, unknown>[]) => {
  const res = await server.client.patch("/config", { feeConfigs });
  expect(res.status).toBe(200);
};
const internal = (config: Record<string, number>) => [{ rail: "INTERNAL", ...config }];

type Case = {
  name: string;
  fees: Record<string, unknown>[];
  side?: "SENDING" | "RECEIVING";
  amount: number;
  override?: number;
  eur?: boolean;
  expected: [totalSending: number, totalReceiving: number, fees: number];
};

describe("fee math: feesIncluded counts every fee; SENDING locks the total, RECEIVING what arrives", () => {
  test.each<Case>([
    { name: "no fee configured", fees: [], amount: 10_000, expected: [10_000, 10_000, 0] },
    {
      name: "bps only",
      fees: internal({ variableRateBps: 150 }),
      amount: 10_000,
      expected: [10_000, 9_850, 150],
    },
    {
      name: "bps rounds half up (2.5 -> 3)",
      fees: internal({ variableRateBps: 25 }),
      amount: 1_000,
      expected: [1_000, 997, 3],
    },
    {
      name: "bps rounds down below half (2.4975 -> 2)",
      fees: internal({ variableRateBps: 25 }),
      amount: 999,
      expected: [999, 997, 2],
    },
    {
      name: "fixed only",
      fees: internal({ fixedAmount: 30 }),
      amount: 10_000,
      expected: [10_000, 9_970, 30],
    },
    {
      name: "bps and fixed",
      fees: internal({ variableRateBps: 100, fixedAmount: 30 }),
      amount: 10_000,
      expected: [10_000, 9_870, 130],
    },
    {
      name: "other rails do not price internal transfers",
      fees: [{ rail: "ACH", fixedAmount: 99 }],
      amount: 10_000,
      expected: [10_000, 10_000, 0],
    },
    {
      name: "platformFeeOverride replaces the configured fee",
      fees: internal({ variableRateBps: 100, fixedAmount: 30 }),
      override: 7,
      amount: 10_000,
      expected: [10_000, 9_993, 7],
    },
    {
      name: "platformFeeOverride 0 waives it",
      fees: internal({ fixedAmount: 30 }),
      override: 0,
      amount: 10_000,
      expected: [10_000, 10_000, 0],
    },
    {
      name: "RECEIVING, fixed: total = amount + fees",
      fees: internal({ fixedAmount: 30 }),
      side: "RECEIVING",
      amount: 10_000,
      expected: [10_030, 10_000, 30],
    },
    {
      name: "RECEIVING, bps and fixed: fee on the total, as if SENDING were locked",
      fees: internal({ variableRateBps: 100, fixedAmount: 30 }),
      side: "RECEIVING",
      amount: 9_870,
      expected: [10_000, 9_870, 130],
    },
    {
      name: "RECEIVING with an override",
      fees: internal({ variableRateBps: 100 }),
      override: 45,
      side: "RECEIVING",
      amount: 1_000,
      expected: [1_045, 1_000, 45],
    },
    {
      name: "non-USD source gets no platform fee",
      fees: internal({ variableRateBps: 100, fixedAmount: 30 }),
      eur: true,
      amount: 10_000,
      expected: [10_000, 10_000, 0],
    },
  ])("$name", async ({ fees, side, amount, override, eur, expected }) => {
    await setFees(fees);
    const extra = {
      lockedCurrencySide: side ?? "SENDING",
      ...(override === undefined ? {} : { platformFeeOverride: override }),
    };
    const res = await server.client.post<Quote>(
      "/quotes",
      transfer(eur ? eurA : a, eur ? eurB : b, amount, extra),
    );
    expect(res.status).toBe(201);
    const [totalSendingAmount, totalReceivingAmount, feesIncluded] = expected;
    expect(res.body).toMatchObject({
      totalSendingAmount,
      totalReceivingAmount,
      feesIncluded,
      platformFeesIncluded: feesIncluded,
      lockedCurrencyAmount: amount,
      exchangeRate: 1,
    });
    expect(totalSendingAmount - feesIncluded).toBe(totalReceivingAmount);
  });

  test("platformFeeOverride on a non-USD source -> 400 INVALID_INPUT on platformFeeOverride", async () => {
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      transfer(eurA, eurB, 100, { platformFeeOverride: 1 }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_INPUT",
      reason: "Invalid platformFeeOverride: platform fees apply only to USD sources",
      details: {
        errors: [{ field: "platformFeeOverride", message: "platform fees apply only to USD sources" }],
      },
    });
  });

  test("the fee is fixed at quote time: a config change does not reprice a PENDING quote", async () => {
    await setFees(internal({ fixedAmount: 10 }));
    const sender = await newAccount(server);
    await fund(server, sender, 1_000);
    const quote = await server.client.post<Quote>("/quotes", transfer(sender, b, 1_000));
    await setFees(internal({ fixedAmount: 500 }));
    const res = await server.client.post<Quote>(`/quotes/${quote.body.id}/execute`);
    expect(res.body).toMatchObject({ status: "COMPLETED", feesIncluded: 10, totalReceivingAmount: 990 });
  });
});

describe("fees larger than the amount -> 400 AMOUNT_OUT_OF_RANGE", () => {
  test.each<[string, Record<string, number>, "SENDING" | "RECEIVING", number, string]>([
    [
      "SENDING, fixed fee above the amount",
      { fixedAmount: 500 },
      "SENDING",
      499,
      "Fees of 500 are not smaller than the amount of 499; nothing would be delivered.",
    ],
    [
      "SENDING, fees equal to the amount (nothing would arrive)",
      { fixedAmount: 500 },
      "SENDING",
      500,
      "Fees of 500 are not smaller than the amount of 500; nothing would be delivered.",
    ],
    [
      "SENDING, a 100% rate",
      { variableRateBps: 10_000 },
      "SENDING",
      1_000,
      "Fees of 1000 are not smaller than the amount of 1000; nothing would be delivered.",
    ],
    [
      "RECEIVING, a 100% rate can deliver nothing",
      { variableRateBps: 10_000 },
      "RECEIVING",
      1_000,
      "A platform fee rate of 100% leaves nothing to deliver.",
    ],
  ])("%s", async (_name, config, side, amount, reason) => {
    await setFees(internal(config));
    const res = await server.client.post("/quotes", transfer(a, b, amount, { lockedCurrencySide: side }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "AMOUNT_OUT_OF_RANGE", reason });
  });

  test("RECEIVING prices the same transfer as SENDING: a fixed fee above the delivered amount is accepted", async () => {
    await setFees(internal({ fixedAmount: 500 }));
    const res = await server.client.post<Quote>(
      "/quotes",
      transfer(a, b, 499, { lockedCurrencySide: "RECEIVING" }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ totalSendingAmount: 999, totalReceivingAmount: 499, feesIncluded: 500 });
    const sending = await server.client.post<Quote>("/quotes", transfer(a, b, 999));
    expect(sending.body).toMatchObject({
      totalSendingAmount: 999,
      totalReceivingAmount: 499,
      feesIncluded: 500,
    });
  });

  test("fees just below the amount are accepted (1 minor unit arrives)", async () => {
    await setFees(internal({ fixedAmount: 500 }));
    const res = await server.client.post<Quote>("/quotes", transfer(a, b, 501));
    expect(res.status).toBe(201);
    expect(res.body.totalReceivingAmount).toBe(1);
  });

  test("RECEIVING: fees pushing the total over the single-transaction maximum -> 400 TRANSACTION_SIZE_LIMIT_EXCEEDED", async () => {
    await setFees(internal({ fixedAmount: 1 }));
    const res = await server.client.post(
      "/quotes",
      transfer(a, b, 100_000_000, { lockedCurrencySide: "RECEIVING" }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "TRANSACTION_SIZE_LIMIT_EXCEEDED" });
  });
});
