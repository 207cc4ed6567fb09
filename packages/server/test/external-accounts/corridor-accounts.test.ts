import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bankAccountSpec, bankAccountTypes } from "../../src/external-accounts/bank-accounts/table.js";
import { accountRails } from "../../src/rails/account-rails.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestServer } from "../harness.js";
import { accountInfo, type Corridor, corridors, MISSING, setPath } from "./corridor-examples.js";

type ExternalAccount = { id: string; status: string; currency: string; accountInfo: Record<string, unknown> };
type ErrorBody = {
  code: string;
  reason: string;
  details?: { errors: { field: string; message: string; constraint?: Record<string, unknown> }[] };
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const newCustomer = async () =>
  (
    await server.client.post<{ id: string }>("/customers", {
      customerType: "INDIVIDUAL",
      ...withEndUserTerms,
    })
  ).body.id;

const create = <T = ExternalAccount>(customerId: string, currency: string, info: Record<string, unknown>) =>
  server.client.post<T>("/customers/external-accounts", { customerId, currency, accountInfo: info });

const fieldsOf = (body: ErrorBody) => body.details?.errors.map((e) => e.field);

/**
 * An invalid value for a field the table gives no case for, from the server's schema of the type: outside
 * its enum, its pattern or format, its length; a missing beneficiary.
 */
function fromSchema(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.enum)) return "NOT_A_VALUE";
  if (schema.pattern !== undefined || schema.format !== undefined) return "!";
  if (schema.minLength !== undefined) return "";
  if (typeof schema.maxLength === "number") return "x".repeat(schema.maxLength + 1);
  return MISSING;
}

/** The table's invalid cases, one generated for every other field, and a currency of another type. */
function invalidCases(corridor: Corridor): [string, unknown, string][] {
  const spec = bankAccountSpec(corridor.accountType);
  const properties = (spec?.schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const listed = new Set(corridor.invalid.map(([field]) => field));
  const generated = Object.entries(properties)
    .filter(([field]) => field !== "accountType" && !listed.has(field))
    .map(([field, schema]): [string, unknown, string] => [field, fromSchema(schema), "the hosted schema"]);
  const otherCurrency = corridor.currency === "EUR" ? "USD" : "EUR";
  const currency: [string, unknown, string][] = listed.has("currency")
    ? []
    : [["currency", otherCurrency, `the currency of a ${corridor.accountType} is ${corridor.currency}`]];
  return [...corridor.invalid, ...generated, ...currency];
}

test("every bank account type of the table has a corridor example here", () => {
  expect(corridors.map((c) => c.accountType).sort()).toEqual([...bankAccountTypes].sort());
  expect(bankAccountTypes).toHaveLength(38);
});

describe.each(corridors)("$accountType", (corridor) => {
  let customerId: string;
  beforeAll(async () => {
    customerId = await newCustomer();
  });

  test("a valid example -> 201 ACTIVE in the sandbox, accountInfo echoed as stored with the rails that can pay it", async () => {
    const info = accountInfo(corridor);
    const res = await create(customerId, corridor.currency, info);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: "ACTIVE", currency: corridor.currency, accountInfo: info });
    const rails = accountRails(corridor.currency, info);
    expect(res.body.accountInfo).toEqual(rails.length === 0 ? info : { ...info, paymentRails: rails });
    const read = await server.client.get<ExternalAccount>(`/customers/external-accounts/${res.body.id}`);
    expect(read.body).toEqual(res.body);
    const again = await create<ErrorBody>(customerId, corridor.currency, info);
    expect([again.status, again.body.code]).toEqual([409, "DUPLICATE_EXTERNAL_ACCOUNT"]);
  });

  test.each(invalidCases(corridor))("%s = %j -> 400 INVALID_INPUT naming it (%s)", async (field, value) => {
    const info = accountInfo(corridor);
    let currency = corridor.currency;
    if (field === "currency") currency = String(value);
    else setPath(info, field, value);
    const res = await create<ErrorBody>(customerId, currency, info);
    expect([res.status, res.body.code], res.text).toEqual([400, "INVALID_INPUT"]);
    expect(fieldsOf(res.body)).toEqual([field === "currency" ? "currency" : `accountInfo.${field}`]);
  });

  test.each([
    ["008", "PENDING", 0],
    ["009", "INACTIVE", 1],
    ["123", "ACTIVE", 1],
  ])("sandbox bank validation: number ending %s -> %s (%i status events)", async (suffix, status, events) => {
    const res = await create(
      customerId,
      corridor.currency,
      accountInfo(corridor, corridor.withSuffix(suffix)),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe(status);
    const sent = await server.db.query<{ body: string }>(
      "SELECT body FROM webhook_events WHERE type = 'EXTERNAL_ACCOUNT.STATUS_UPDATED' AND body LIKE $1",
      [`%${res.body.id}%`],
    );
    expect(sent.map((e) => JSON.parse(e.body).data)).toEqual(events ? [res.body] : []);
  });
});
