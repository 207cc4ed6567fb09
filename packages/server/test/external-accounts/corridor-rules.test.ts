import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { agentSetup } from "../agents/helpers.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestServer } from "../harness.js";
import { payer, payout } from "../payouts/helpers.js";

// Rules of the corridor bank accounts beyond one field each (corridor-accounts.test.ts): equivalence,
// PIX keys by kind, beneficiaries, required alternatives, one 400 for all, the three create routes,
// production without sandbox suffixes, and quotes to these accounts.

type ExternalAccount = { id: string; status: string; currency: string; customerId?: string };
type ErrorBody = {
  code: string;
  reason: string;
  details?: { errors: { field: string; message: string; constraint?: Record<string, unknown> }[] };
};

let server: TestServer;
let customerId: string;
beforeAll(async () => {
  server = await startServer();
  customerId = await newCustomer();
});
afterAll(() => server.close());

async function newCustomer(): Promise<string> {
  const res = await server.client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    ...withEndUserTerms,
  });
  return res.body.id;
}

const person = { beneficiaryType: "INDIVIDUAL", fullName: "Ana Souza", countryOfResidence: "BR" };
const create = <T = ExternalAccount>(body: Record<string, unknown>, owner = customerId) =>
  server.client.post<T>("/customers/external-accounts", { customerId: owner, ...body });
const fieldsOf = (body: ErrorBody) => body.details?.errors.map((e) => e.field);
const mxn = (clabeNumber = "002010077777777771", beneficiary: Record<string, unknown> = person) => ({
  currency: "MXN",
  accountInfo: { accountType: "MXN_ACCOUNT", clabeNumber, beneficiary },
});
const swift = (info: Record<string, unknown>, currency = "USD") => ({
  currency,
  accountInfo: {
    accountType: "SWIFT_ACCOUNT",
    country: "GB",
    bankName: "NatWest",
    beneficiary: person,
    ...info,
  },
});

describe("equivalent accounts -> 409 DUPLICATE_EXTERNAL_ACCOUNT", () => {
  test("the same IBAN in another letter case, and a BIC with the head-office branch XXX, are the same account", async () => {
    const owner = await newCustomer();
    const first = swift({ swiftCode: "NWBKGB2L", iban: "GB29NWBK60161331926819" });
    expect((await create(first, owner)).status).toBe(201);
    const again = await create<ErrorBody>(
      swift({ swiftCode: "NWBKGB2LXXX", iban: "GB29nwbk60161331926819" }),
      owner,
    );
    expect([again.status, again.body.code]).toEqual([409, "DUPLICATE_EXTERNAL_ACCOUNT"]);
  });

  test("names and a second number do not count: the same account number with another bank name or phone", async () => {
    const owner = await newCustomer();
    const bdt = (bankName: string, phoneNumber?: string) => ({
      currency: "BDT",
      accountInfo: {
        accountType: "BDT_ACCOUNT",
        accountNumber: "555000111",
        bankName,
        phoneNumber,
        beneficiary: person,
      },
    });
    expect((await create(bdt("Dutch-Bangla Bank"), owner)).status).toBe(201);
    expect((await create<ErrorBody>(bdt("DBBL", "+8801712345678"), owner)).body.code).toBe(
      "DUPLICATE_EXTERNAL_ACCOUNT",
    );
  });

  test("not equivalent: another sort code, another currency, another customer, the platform's own", async () => {
    const owner = await newCustomer();
    const gbp = (sortCode: string) => ({
      currency: "GBP",
      accountInfo: { accountType: "GBP_ACCOUNT", sortCode, accountNumber: "66374958", beneficiary: person },
    });
    expect((await create(gbp("089999"), owner)).status).toBe(201);
    expect((await create(gbp("123456"), owner)).status).toBe(201);
    expect((await create(swift({ swiftCode: "NWBKGB2L", accountNumber: "31926819" }), owner)).status).toBe(
      201,
    );
    expect(
      (await create(swift({ swiftCode: "NWBKGB2L", accountNumber: "31926819" }, "GBP"), owner)).status,
    ).toBe(201);
    expect((await create(gbp("089999"), await newCustomer())).status).toBe(201);
    expect((await server.client.post("/platform/external-accounts", gbp("089999"))).status).toBe(201);
  });
});

describe.each([
  ["CPF", "39053344705", "39053344706"],
  ["CNPJ", "11222333000181", "11222333000182"],
  ["EMAIL", "ana@example.com", "ana.example.com"],
  ["PHONE", "+5511987654321", "+14155550123"],
  ["RANDOM", "123e4567-e89b-42d3-a456-426614174000", "123e4567-e89b-42d3-a456"],
])("PIX key of kind %s", (pixKeyType, valid, invalid) => {
  const brl = (pixKey: string) => ({
    currency: "BRL",
    accountInfo: {
      accountType: "BRL_ACCOUNT",
      pixKey,
      pixKeyType,
      taxId: "52998224725",
      beneficiary: person,
    },
  });
  test(`${valid} -> 201`, async () => {
    expect((await create(brl(valid))).status).toBe(201);
  });
  test(`${invalid} -> 400 on accountInfo.pixKey`, async () => {
    const res = await create<ErrorBody>(brl(invalid));
    expect([res.status, fieldsOf(res.body)]).toEqual([400, ["accountInfo.pixKey"]]);
  });
});

describe("beneficiaries (hosted <Ccy>Beneficiary and BusinessBeneficiary; conventions §4.1 wins)", () => {
  test.each([
    [
      "an INDIVIDUAL without countryOfResidence (conventions §4.1)",
      { countryOfResidence: undefined },
      "countryOfResidence",
    ],
    ["an INDIVIDUAL without fullName", { fullName: undefined }, "fullName"],
    ["an e-mail that is not one", { email: "nope" }, "email"],
    ["a phone number not in E.164", { phoneNumber: "0712 345 678" }, "phoneNumber"],
    ["a birthDate that is no date", { birthDate: "1990-02-30" }, "birthDate"],
    [
      "an address without postalCode",
      { address: { line1: "Rua A, 1", country: "BR" } },
      "address.postalCode",
    ],
    ["an unknown field", { ssn: "123" }, "ssn"],
    ["an unknown beneficiaryType", { beneficiaryType: "ROBOT" }, "beneficiaryType"],
  ])("%s -> 400 naming it", async (_rule, change, field) => {
    const res = await create<ErrorBody>(mxn("002010077777777771", { ...person, ...change }));
    expect([res.status, fieldsOf(res.body)]).toEqual([400, [`accountInfo.beneficiary.${field}`]]);
  });

  test("a BUSINESS beneficiary needs legalName only; countryOfIncorporation is accepted as for USD", async () => {
    const business = {
      beneficiaryType: "BUSINESS",
      legalName: "Acme SA de CV",
      countryOfIncorporation: "MX",
    };
    const owner = await newCustomer();
    expect((await create(mxn("002010077777777771", business), owner)).status).toBe(201);
    const res = await create<ErrorBody>(mxn("002010077777777771", { beneficiaryType: "BUSINESS" }), owner);
    expect(fieldsOf(res.body)).toEqual(["accountInfo.beneficiary.legalName"]);
  });
});

describe("required alternatives and cross-field rules", () => {
  test("an account with none of its numbers -> 400 on accountInfo saying which it needs", async () => {
    const res = await create<ErrorBody>({
      currency: "BDT",
      accountInfo: { accountType: "BDT_ACCOUNT", bankName: "Dutch-Bangla Bank", beneficiary: person },
    });
    expect(res.body.details?.errors).toEqual([
      { field: "accountInfo", message: "needs accountNumber, or phoneNumber" },
    ]);
  });

  test("INR: a UPI VPA alone is an account; rail UPI without one is not", async () => {
    const inr = (info: Record<string, unknown>) => ({
      currency: "INR",
      accountInfo: { accountType: "INR_ACCOUNT", beneficiary: person, ...info },
    });
    expect((await create(inr({ vpa: "ana.souza@okhdfc", rail: "UPI" }))).status).toBe(201);
    const res = await create<ErrorBody>(
      inr({ accountNumber: "000111222444", ifsc: "HDFC0001234", rail: "UPI" }),
    );
    expect(fieldsOf(res.body)).toEqual(["accountInfo.rail"]);
  });

  test("EUR: a BIC of the IBAN's country -> 201; SWIFT_ACCOUNT with an IBAN alone -> 201", async () => {
    const eur = { accountType: "EUR_ACCOUNT", iban: "FR1420041010050500013M02606", swiftCode: "BNPAFRPP" };
    expect((await create({ currency: "EUR", accountInfo: { ...eur, beneficiary: person } })).status).toBe(
      201,
    );
    expect(
      (await create(swift({ swiftCode: "DEUTDEFF", iban: "DE89370400440532013000" }, "EUR"))).status,
    ).toBe(201);
  });

  test("every invalid field of the domain checks comes in one 400 INVALID_INPUT", async () => {
    const res = await create<ErrorBody>({
      currency: "USD",
      accountInfo: {
        accountType: "EUR_ACCOUNT",
        iban: "DE89370400440532013001",
        swiftCode: "BNPAFRPP",
        beneficiary: person,
      },
    });
    expect(res.body.code).toBe("INVALID_INPUT");
    expect(fieldsOf(res.body)).toEqual(["currency", "accountInfo.iban", "accountInfo.swiftCode"]);
    expect(res.body.details?.errors[1]?.constraint).toEqual({ format: "iban" });
  });
});

describe("one 400 for the schema's errors and the checksums together", () => {
  // A pattern error (swiftCode) beside a checksum error (iban) and the type's currency: all three named.
  const shapeAndChecksum = {
    currency: "USD",
    accountInfo: {
      accountType: "EUR_ACCOUNT",
      iban: "DE89370400440532013001",
      swiftCode: "not-a-bic",
      beneficiary: person,
    },
  };
  const expectBoth = (res: { status: number; body: ErrorBody }) => {
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(fieldsOf(res.body)?.sort()).toEqual(["accountInfo.iban", "accountInfo.swiftCode", "currency"]);
    const swiftCode = res.body.details?.errors.find((e) => e.field === "accountInfo.swiftCode");
    expect(swiftCode?.constraint).toHaveProperty("pattern");
  };

  test("POST /customers/external-accounts names the pattern error and the checksum error at once", async () => {
    expectBoth(await create<ErrorBody>(shapeAndChecksum));
  });

  test("POST /platform/external-accounts names the pattern error and the checksum error at once", async () => {
    expectBoth(await server.client.post<ErrorBody>("/platform/external-accounts", shapeAndChecksum));
  });

  test("POST /agents/me/external-accounts names the pattern error and the checksum error at once", async () => {
    const { agentClient } = await agentSetup(server);
    expectBoth(await agentClient.post<ErrorBody>("/agents/me/external-accounts", shapeAndChecksum));
  });

  test("a field the schema refused is not also checked: one FieldError for a malformed CLABE", async () => {
    const res = await create<ErrorBody>(mxn("12345"));
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["accountInfo.clabeNumber"]);
  });

  test("a missing required field beside a bad check digit: both named", async () => {
    const res = await create<ErrorBody>({
      currency: "MXN",
      accountInfo: { accountType: "MXN_ACCOUNT", clabeNumber: "002010077777777772" },
    });
    expect(fieldsOf(res.body)?.sort()).toEqual(["accountInfo.beneficiary", "accountInfo.clabeNumber"]);
  });
});

describe("the three create routes and the environments", () => {
  test("POST /platform/external-accounts takes every corridor: a platform-owned MXN account", async () => {
    const res = await server.client.post<ExternalAccount>(
      "/platform/external-accounts",
      mxn("002010077777777771"),
    );
    expect([res.status, res.body.status, res.body.customerId]).toEqual([201, "ACTIVE", undefined]);
  });

  test("POST /agents/me/external-accounts takes every corridor: an EUR account of the agent's customer", async () => {
    const { agentClient, customerId: agentCustomer } = await agentSetup(server);
    const res = await agentClient.post<ExternalAccount>("/agents/me/external-accounts", {
      currency: "EUR",
      accountInfo: { accountType: "EUR_ACCOUNT", iban: "DE89370400440532013000", beneficiary: person },
    });
    expect([res.status, res.body.customerId, res.body.status]).toEqual([201, agentCustomer, "ACTIVE"]);
  });

  test("production has no sandbox bank: a number ending 009 is ACTIVE at once", async () => {
    const production = server.client.as(await server.newPlatform("PRODUCTION"));
    const res = await production.post<ExternalAccount>("/platform/external-accounts", {
      currency: "KES",
      accountInfo: {
        accountType: "KES_ACCOUNT",
        phoneNumber: "+254712345009",
        provider: "M-Pesa",
        beneficiary: person,
      },
    });
    expect([res.status, res.body.status]).toEqual([201, "ACTIVE"]);
  });
});

describe("quotes to corridor accounts", () => {
  // Payouts to these accounts belong to issue 18 §3 (quotes/, payments/): whichever is built when this runs,
  // a quote and a transfer-out are answered cleanly (priced, or 501 NOT_IMPLEMENTED), never a 500.
  test("a quote or a transfer-out to an MXN account is priced or 501 NOT_IMPLEMENTED, never a 500", async () => {
    const { customerId: owner, accountId } = await payer(server.client);
    const external = await create(mxn("002010077777777771"), owner);
    expect(external.status).toBe(201);
    const quote = await server.client.post<ErrorBody>("/quotes", payout(accountId, external.body.id, 1_000));
    expect([201, 501], quote.text).toContain(quote.status);
    if (quote.status === 501) expect(quote.body.code).toBe("NOT_IMPLEMENTED");
    const out = await server.client.post<ErrorBody>("/transfer-out", {
      source: { accountId },
      destination: { accountId: external.body.id },
      amount: 1_000,
    });
    expect([201, 501], out.text).toContain(out.status);
    if (out.status === 501) expect(out.body.code).toBe("NOT_IMPLEMENTED");
  });
});
