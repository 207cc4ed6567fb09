import fc from "fast-check";
import { catalogue, isErrorCode } from "../src/core/errors/catalogue.js";
import { type OpenApiDocument, ResponseContract } from "../test/contract/response-contract.js";
import { sendAllThenRead } from "../test/foundation/raw-http.js";
import type { DbSnapshotter, TableChange } from "./db-snapshot.js";
import { checkEdge, type EdgeDraft, type EdgeExpectation, edgeArb } from "./edges.js";
import { httpBytes } from "./http-bytes.js";
import { committedOnRejection } from "./rejection-writes.js";

/**
 * Issue 9 part 1: requests generated from the service's own OpenAPI document (fast-check arbitraries
 * from each operation's JSON schemas, plus hostile mutations), with invariants checked on every answer.
 * Shared by `npm run fuzz` (fuzz/run.ts) and the CI test (test/reliability/fuzz.test.ts).
 */

export interface FuzzCredentials {
  clientId: string;
  clientSecret: string;
}

export interface FuzzTarget {
  /** The server origin (health check), e.g. http://127.0.0.1:1234. */
  origin: string;
  /** The versioned base URL the OpenAPI paths are relative to. */
  baseUrl: string;
  primary: FuzzCredentials;
  /** A second platform's credentials, used for some requests (tenancy). */
  secondary: FuzzCredentials;
}

export interface FuzzOptions {
  requests: number;
  seed: number;
  concurrency?: number;
  /**
   * Checks "nothing is written for a rejected request" (issue 9 part 6): the database snapshot before and
   * after every 4xx must be equal, except the writes a rule commits on purpose (fuzz/rejection-writes.ts).
   * Needs a quiet database (no job runner) and sends one request at a time.
   */
  snapshots?: DbSnapshotter;
  /** Stop starting new batches (500 requests) after this many ms; `sent` says how many went. */
  budgetMs?: number;
  /** Called after every batch (progress for long runs). */
  onBatch?: (result: FuzzResult) => void;
}

export interface FuzzRequest {
  operation: string;
  method: string;
  url: string;
  /** The URL relative to the versioned base URL (what the OpenAPI paths match). */
  path: string;
  headers: Record<string, string>;
  /** Bytes for a body that is not valid UTF-8. */
  body?: string | Uint8Array<ArrayBuffer>;
  /** Written whole to a raw socket before the answer is read (fetch reads while it sends). */
  raw?: boolean;
  /** With `raw`: chunked transfer encoding instead of Content-Length. */
  chunked?: boolean;
  /** With `raw`: the whole request as latin1 text (bytes the HTTP parser must refuse). */
  bytes?: string;
  /** An edge request's expected answer (fuzz/edges.ts), checked besides the invariants. */
  expect?: EdgeExpectation;
}

export interface Violation {
  rule: string;
  request: FuzzRequest;
  status: number;
  response: string;
}

export interface FuzzResult {
  seed: number;
  sent: number;
  operations: number;
  byStatus: Record<string, number>;
  byCode: Record<string, number>;
  violations: Violation[];
  /** 4xx answers whose database snapshots were compared (0 without `snapshots`). */
  rejectionsChecked: number;
  /** Rejections that committed a write a rule allows, by rule. */
  committedByRule: Record<string, number>;
  /** Time spent taking database snapshots, ms. */
  snapshotMs: number;
  healthy: boolean;
  ms: number;
}

type Schema = Record<string, unknown>;

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
  bodyRequired: boolean;
}

// --- the OpenAPI document -> operations --------------------------------------------------------------

export async function loadOperations(baseUrl: string): Promise<Operation[]> {
  const res = await fetch(`${baseUrl}/openapi.json`);
  if (res.status !== 200) throw new Error(`GET openapi.json -> ${res.status}`);
  const doc = (await res.json()) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const named = doc.components?.schemas ?? {};
  // Bodies are named components referenced by `$ref`: inline them, so generation sees the fields.
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (typeof value !== "object" || value === null) return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/"))
      return inline(named[ref.slice("#/components/schemas/".length)] ?? {});
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v)]));
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const requestBody = op.requestBody as
        | { required?: boolean; content?: Record<string, { schema?: Schema }> }
        | undefined;
      const declared = requestBody?.content?.["application/json"]?.schema;
      const body = declared ? (inline(declared) as Schema) : undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters as Parameter[] | undefined) ?? [],
        ...(body ? { body } : {}),
        bodyRequired: requestBody?.required === true,
      });
    }
  }
  return operations;
}

// --- real ids the requests can use -------------------------------------------------------------------

export interface Fixtures {
  /** Real ids of the primary platform (customer, its accounts, a card, ...). */
  ids: string[];
  /** Real ids a DELETE may remove without hurting the run (a spare token, a spare customer). */
  disposable: string[];
  /** The customer's USD account and its bank account: the credits of extreme amounts move money between them. */
  usdAccountId?: string;
  externalAccountId?: string;
}

async function call(
  baseUrl: string,
  auth: FuzzCredentials,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: basic(auth),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A KYC-approved customer, its accounts (one funded), a card and a transaction on the primary platform. */
export async function seedFixtures(target: FuzzTarget): Promise<Fixtures> {
  const { baseUrl, primary } = target;
  const ids: string[] = [];
  const must = async (method: string, path: string, body?: unknown, ok = [200, 201]) => {
    const res = await call(baseUrl, primary, method, path, body);
    if (!ok.includes(res.status)) throw new Error(`fixture ${method} ${path} -> ${res.status}`);
    return res.body;
  };
  await must("PATCH", "/config", { sandboxSkipVerificationPaperwork: true });
  // The end-user terms on file: money moves only for customers who accepted them.
  const terms = await must("GET", "/customers/end-user-terms");
  const customer = await must("POST", "/customers", {
    customerType: "INDIVIDUAL",
    fullName: "Fuzz Holder",
    email: "fuzz@example.com",
    agreementConsents: [
      {
        type: "SERVICE_END_USER_TERMS",
        termsVersion: terms.version,
        acceptedAt: "2026-01-01T00:00:00Z",
        ipAddress: "203.0.113.10",
      },
    ],
  });
  const customerId = String(customer.id);
  ids.push(customerId);
  const bank = await must("POST", "/customers/external-accounts", {
    customerId,
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: "1234567000",
      routingNumber: "021000021",
      bankAccountType: "CHECKING",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Fuzz Holder", countryOfResidence: "US" },
    },
  });
  ids.push(String(bank.id));
  const accounts = (await must("GET", `/customers/internal-accounts?customerId=${customerId}`)) as {
    data: { id: string; type: string; currency?: string }[];
  };
  for (const a of accounts.data) ids.push(a.id);
  const usd = accounts.data.find((a) => a.type === "INTERNAL_FIAT")?.id;
  if (usd) {
    await must("POST", `/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000_000 });
    const card = await must("POST", "/cards", {
      cardholderId: customerId,
      form: "VIRTUAL",
      fundingSources: [usd],
    });
    ids.push(String(card.id));
  }
  const txs = (await must("GET", "/transactions?limit=5")) as { data?: { id: string }[] };
  for (const t of txs.data ?? []) ids.push(t.id);
  // Never the primary token's id: a DELETE /tokens/{id} on it would turn the rest of the run into 401s.
  const spareToken = await must("POST", "/tokens", { name: "fuzz spare", permissions: ["VIEW"] });
  const spareCustomer = await must("POST", "/customers", { customerType: "BUSINESS" });
  const disposable = [String(spareToken.id), String(spareCustomer.id)];
  return {
    ids: [...ids, ...disposable],
    disposable,
    ...(usd ? { usdAccountId: usd } : {}),
    externalAccountId: String(bank.id),
  };
}

// --- arbitraries -------------------------------------------------------------------------------------

const hugeString = fc.constantFrom(10_000, 70_000).map((n) => "x".repeat(n));
const unicode = fc.constantFrom(
  "ü",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "\u0000",
  "\u202e",
  "😀😀",
  "\ud800",
  "'; DROP TABLE customers; --",
  "<script>",
  "%00",
  "../../../etc/passwd",
  "null",
  "-1",
  "1e309",
  " ",
);
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  unicode,
  hugeString,
);
const nastyNumber = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    1.5,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    9_000_000_000_000_001,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  nastyNumber,
  nastyString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

const malformedId = fc.oneof(
  fc.constantFrom(
    "Customer:00000000-0000-0000-0000-000000000000",
    "InternalAccount:not-a-uuid",
    "Card:",
    ":",
    "Customer:00000000-0000-0000-0000-00000000000g",
    "x",
  ),
  fc.uuid().map((u) => `Customer:${u}`),
  fc.uuid().map((u) => `InternalAccount:${u}`),
  fc.uuid().map((u) => `Card:${u}`),
  fc.uuid(),
  nastyString,
);

const malformedCursor = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.base64String({ maxLength: 40 }),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v)).toString("base64url")),
  fc
    .record({ id: fc.string(), createdAt: fc.oneof(fc.string(), fc.integer()) })
    .map((v) => Buffer.from(JSON.stringify(v)).toString("base64url")),
  hugeString,
);

function patternArb(pattern: string, fallback: fc.Arbitrary<string>): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern, "u"));
  } catch {
    return fallback;
  }
}

const idLike = /id$|Id$|Ids$|^fundingSources$|^accountIdentifier$/;

/** A value valid for `schema` (best effort), with real ids for id-like fields. */
function fromSchema(schema: Schema, fixtures: Fixtures, name = "", depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key] as Schema[] | undefined;
    if (branches?.length) return fc.oneof(...branches.map((b) => fromSchema(b, fixtures, name, depth)));
  }
  const allOf = schema.allOf as Schema[] | undefined;
  if (allOf?.length) return fromSchema(Object.assign({}, ...allOf) as Schema, fixtures, name, depth);
  const type = Array.isArray(schema.type)
    ? (schema.type as string[])[0]
    : (schema.type as string | undefined);
  switch (type) {
    case "string": {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = Math.min((schema.maxLength as number | undefined) ?? 40, 60);
      let arb: fc.Arbitrary<string> = fc.string({ minLength: Math.min(min, max), maxLength: max });
      if (schema.format === "date-time") arb = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      else if (schema.format === "date")
        arb = fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      else if (schema.format === "email") arb = fc.emailAddress();
      else if (schema.format === "uri") arb = fc.webUrl();
      else if (typeof schema.pattern === "string") arb = patternArb(schema.pattern, arb);
      if (idLike.test(name) && fixtures.ids.length)
        return fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...fixtures.ids) },
          { weight: 1, arbitrary: arb },
        );
      return arb;
    }
    case "integer":
    case "number": {
      const min = (schema.minimum as number | undefined) ?? -1_000_000;
      const max = (schema.maximum as number | undefined) ?? 1_000_000;
      return type === "integer"
        ? fc.oneof(
            fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, 1e9) }),
            fc.constantFrom(min, Math.min(max, Number.MAX_SAFE_INTEGER)),
          )
        : fc.double({ min, max, noNaN: true });
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = (schema.items as Schema | undefined) ?? {};
      const minLength = (schema.minItems as number | undefined) ?? 0;
      const maxLength = Math.min((schema.maxItems as number | undefined) ?? 3, 3);
      if (depth > 4) return fc.constant([]);
      return fc.array(fromSchema(items, fixtures, name, depth + 1), {
        minLength: Math.min(minLength, maxLength),
        maxLength,
      });
    }
    default: {
      const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
      if (depth > 4 || (type !== "object" && !schema.properties)) return fc.jsonValue({ maxDepth: 2 });
      const required = (schema.required as string[] | undefined) ?? [];
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(properties))
        model[key] = fromSchema(value, fixtures, key, depth + 1);
      return fc.record(model, { requiredKeys: required.filter((k) => k in properties) });
    }
  }
}

/** A valid-ish object, then one of the mutations (or none). */
function mutatedObject(base: fc.Arbitrary<unknown>, schema: Schema): fc.Arbitrary<unknown> {
  const keys = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const mutations: fc.Arbitrary<(v: unknown) => unknown>[] = [
    fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), wrongType).map(
      ([k, x]) =>
        (v: unknown) =>
          isObject(v) ? { ...v, [`extra_${k}`]: x } : v,
    ),
  ];
  if (keys.length) {
    mutations.push(
      fc.tuple(fc.constantFrom(...keys), wrongType).map(
        ([k, x]) =>
          (v: unknown) =>
            isObject(v) ? { ...v, [k]: x } : v,
      ),
      fc.constantFrom(...keys).map((k) => (v: unknown) => {
        if (!isObject(v)) return v;
        const { [k]: _dropped, ...rest } = v;
        return rest;
      }),
      fc.tuple(fc.constantFrom(...keys), fc.oneof(hugeString, unicode, malformedId, nastyNumber)).map(
        ([k, x]) =>
          (v: unknown) =>
            isObject(v) ? { ...v, [k]: x } : v,
      ),
    );
  }
  const mutation = fc.oneof(
    { weight: mutations.length, arbitrary: fc.constant((v: unknown) => v) },
    { weight: mutations.length, arbitrary: fc.oneof(...mutations) },
  );
  return fc.tuple(base, mutation).map(([v, mutate]) => mutate(v));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

type AuthKind = "primary" | "secondary" | "none" | "garbage";

const garbageAuth = fc.oneof(
  fc.constantFrom("Basic", "Basic ", "Basic !!!", "Bearer abc", "basic Zm9vOmJhcg==", "Basic Og=="),
  fc
    .string({ unit: "grapheme-ascii", maxLength: 60 })
    .map((s) => `Basic ${Buffer.from(s).toString("base64")}`),
  fc.string({ unit: "grapheme-ascii", maxLength: 80 }),
  fc.constant(`Basic ${"A".repeat(9000)}`),
);

const latin1 = fc.string({ unit: "grapheme-ascii", maxLength: 60 });
const garbageHeaders = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      "idempotency-key",
      "request-id",
      "service-wallet-signature",
      "x-forwarded-for",
      "accept",
      "accept-encoding",
      "content-encoding",
      "if-none-match",
      "x-api-version",
    ),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
  ),
  fc.oneof(latin1, fc.constant("x".repeat(6000)), fc.uuid()),
  { maxKeys: 3 },
);

interface Draft {
  auth: AuthKind;
  garbageAuth: string;
  pathValues: Record<string, string>;
  query: Record<string, unknown>;
  body: { kind: "json"; value: unknown } | { kind: "raw"; text: string } | { kind: "none" };
  contentType: string | null;
  headers: Record<string, string>;
}

function draftArb(op: Operation, fixtures: Fixtures): fc.Arbitrary<Draft> {
  const pool = op.method === "DELETE" ? fixtures.disposable : fixtures.ids;
  const realIds = pool.length ? fc.constantFrom(...pool) : malformedId;
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const pathModel: Record<string, fc.Arbitrary<string>> = {};
  for (const p of pathParams) {
    pathModel[p.name] = fc.oneof(
      { weight: 5, arbitrary: realIds },
      { weight: 2, arbitrary: malformedId },
      { weight: 1, arbitrary: fromSchema(p.schema, fixtures, p.name).map(String) },
    );
  }
  const queryModel: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of queryParams) {
    const valid = fromSchema(p.schema, fixtures, p.name);
    queryModel[p.name] = fc.oneof(
      { weight: 10, arbitrary: valid },
      { weight: 1, arbitrary: p.name === "cursor" ? malformedCursor : wrongType },
      { weight: 1, arbitrary: fc.oneof(hugeString, unicode, nastyNumber) },
    );
  }
  const query = fc
    .tuple(
      fc.record(queryModel, { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) }),
      fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 })), {
        freq: 5,
      }),
    )
    .map(([q, extra]) => (extra ? { ...q, [extra[0]]: extra[1] } : q));
  const validBody = op.body ? fromSchema(op.body, fixtures) : fc.constant(undefined);
  const body: fc.Arbitrary<Draft["body"]> = fc.oneof(
    {
      weight: 8,
      arbitrary: (op.body ? mutatedObject(validBody, op.body) : validBody).map((value) =>
        value === undefined ? ({ kind: "none" } as const) : ({ kind: "json", value } as const),
      ),
    },
    { weight: 1, arbitrary: wrongType.map((value) => ({ kind: "json", value }) as const) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.constantFrom(
            "{",
            '{"a":',
            "[1,2",
            "{'a':1}",
            "null",
            '"str"',
            "",
            "{}}",
            "\u0000",
            '{"__proto__":{"x":1}}',
          ),
          fc.string({ maxLength: 50 }),
          fc.constant(`{"a":"${"y".repeat(2_000_000)}"}`),
          fc.constant(`${"[".repeat(5000)}${"]".repeat(5000)}`),
        )
        .map((text) => ({ kind: "raw", text }) as const),
    },
    { weight: 1, arbitrary: fc.constant({ kind: "none" } as const) },
  );
  const contentType = fc.oneof(
    { weight: 12, arbitrary: fc.constant("application/json") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        null,
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin1",
        "application/xml",
        "application/json-patch+json",
        "garbage",
      ),
    },
  );
  return fc.record({
    auth: fc.constantFrom<AuthKind>(
      ...(Array(16).fill("primary") as AuthKind[]),
      "secondary",
      "secondary",
      "none",
      "garbage",
    ),
    garbageAuth,
    pathValues: fc.record(pathModel),
    query,
    body,
    contentType,
    headers: fc.option(garbageHeaders, { freq: 4, nil: {} }),
  });
}

function basic(auth: FuzzCredentials): string {
  return `Basic ${Buffer.from(`${auth.clientId}:${auth.clientSecret}`).toString("base64")}`;
}

function encodeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    const values = Array.isArray(v) ? v : [v];
    for (const item of values) {
      const s = typeof item === "object" && item !== null ? JSON.stringify(item) : String(item);
      parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(toWellFormed(s))}`);
    }
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

/** encodeURIComponent throws on lone surrogates. */
function toWellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

function toRequest(op: Operation, draft: Draft, target: FuzzTarget): FuzzRequest {
  let path = op.path;
  for (const [name, value] of Object.entries(draft.pathValues)) {
    path = path.replace(`{${name}}`, encodeURIComponent(toWellFormed(value)) || "%20");
  }
  const headers: Record<string, string> = { ...draft.headers };
  if (draft.auth === "primary") headers.authorization = basic(target.primary);
  else if (draft.auth === "secondary") headers.authorization = basic(target.secondary);
  else if (draft.auth === "garbage") headers.authorization = draft.garbageAuth;
  let body: string | undefined;
  if (draft.body.kind === "json") body = JSON.stringify(draft.body.value) ?? "null";
  else if (draft.body.kind === "raw") body = draft.body.text;
  if (op.method === "GET" || op.method === "DELETE") {
    // A body on GET/DELETE only sometimes (fetch refuses GET bodies altogether).
    if (op.method === "GET") body = undefined;
  }
  if (body !== undefined && draft.contentType) headers["content-type"] = draft.contentType;
  return {
    operation: `${op.method} ${op.path}`,
    method: op.method,
    url: `${target.baseUrl}${path}${encodeQuery(draft.query)}`,
    path: `${path}${encodeQuery(draft.query)}`,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** An edge request (fuzz/edges.ts), as the primary platform. */
function toEdgeRequest(draft: EdgeDraft, target: FuzzTarget): FuzzRequest {
  const headers: Record<string, string> = { authorization: basic(target.primary) };
  if (draft.body !== undefined) headers["content-type"] = "application/json";
  return {
    operation: draft.operation,
    method: draft.method,
    url: `${target.baseUrl}${draft.path}`,
    path: draft.path,
    headers,
    ...(draft.body === undefined ? {} : { body: draft.body }),
    ...(draft.raw ? { raw: true } : {}),
    ...(draft.chunked ? { chunked: true } : {}),
    ...(draft.bytes === undefined
      ? {}
      : { bytes: draft.bytes.replaceAll("{base}", new URL(target.baseUrl).pathname) }),
    ...(draft.expect ? { expect: draft.expect } : {}),
  };
}

/** Schema-driven requests, and one in eight an edge request of issue 15 (fuzz/edges.ts). */
function requestArb(operations: Operation[], fixtures: Fixtures, target: FuzzTarget) {
  const fromOperation = fc
    .integer({ min: 0, max: operations.length - 1 })
    .chain((i) => draftArb(operations[i] as Operation, fixtures).map((d) => [i, d] as const))
    .map(([i, d]) => toRequest(operations[i] as Operation, d, target));
  const edges = edgeArb(operations, fixtures, (op) =>
    op.body ? fromSchema(op.body, fixtures) : fc.constant({}),
  ).map((draft) => toEdgeRequest(draft, target));
  return fc.oneof({ weight: 7, arbitrary: fromOperation }, { weight: 1, arbitrary: edges });
}

/** `n` generated requests from `seed` (the drain phase's, fuzz/drain.ts). */
export async function sampleRequests(
  target: FuzzTarget,
  fixtures: Fixtures,
  seed: number,
  n: number,
): Promise<FuzzRequest[]> {
  const operations = await loadOperations(target.baseUrl);
  return fc.sample(requestArb(operations, fixtures, target), { seed, numRuns: n });
}

// --- invariants --------------------------------------------------------------------------------------

const requestIdPattern = /^req_[0-9a-f]{32}$/;

/** The rules every answer must hold; returns the broken ones. */
export function checkResponse(
  status: number,
  contentType: string,
  text: string,
  requestId: string | null,
): string[] {
  // Conventions §1.1: every answer, the parser-level ones included.
  const missingId = requestIdPattern.test(requestId ?? "") ? [] : [`no X-Request-Id (${requestId})`];
  if (status >= 500) return [`5xx (${status})`, ...missingId];
  if (status < 400) return missingId;
  if (missingId.length) return missingId;
  if (!contentType.includes("application/json")) return [`error body is not JSON (${contentType})`];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return ["error body does not parse"];
  }
  if (!isObject(body)) return ["error body is not an object"];
  const broken: string[] = [];
  const extra = Object.keys(body).filter((k) => !["code", "reason", "details"].includes(k));
  if (extra.length) broken.push(`error body has extra keys ${extra.join(",")}`);
  if (typeof body.reason !== "string" || !body.reason) broken.push("error body has no reason");
  if (body.details !== undefined && !isObject(body.details)) broken.push("details is not an object");
  const code = body.code;
  if (typeof code !== "string" || !isErrorCode(code))
    return [...broken, `code ${String(code)} not in the catalogue`];
  if (catalogue[code].status !== status)
    broken.push(`${code} answered ${status}, catalogue says ${catalogue[code].status}`);
  if (code === "INVALID_INPUT") {
    const errors = isObject(body.details) ? body.details.errors : undefined;
    const named =
      Array.isArray(errors) &&
      errors.some((e) => isObject(e) && typeof e.field === "string" && e.field.length > 0);
    if (!named) broken.push("400 INVALID_INPUT names no field in details.errors");
  }
  return broken;
}

// --- the run -----------------------------------------------------------------------------------------

export async function fuzz(
  target: FuzzTarget,
  fixtures: Fixtures,
  options: FuzzOptions,
): Promise<FuzzResult> {
  const started = Date.now();
  const operations = await loadOperations(target.baseUrl);
  // Every answer also keeps the response contract of the OpenAPI document (issue 9 part 1).
  const doc = (await (await fetch(`${target.baseUrl}/openapi.json`)).json()) as OpenApiDocument;
  const contract = new ResponseContract(doc);
  const arb = requestArb(operations, fixtures, target);
  // Generated in batches so a long run does not hold every request in memory.
  const batch = 500;
  const result: FuzzResult = {
    seed: options.seed,
    sent: 0,
    operations: operations.length,
    byStatus: {},
    byCode: {},
    violations: [],
    rejectionsChecked: 0,
    committedByRule: {},
    snapshotMs: 0,
    healthy: false,
    ms: 0,
  };
  const snapshots = options.snapshots;
  const concurrency = snapshots ? 1 : (options.concurrency ?? 8);
  await snapshots?.changes();
  for (let offset = 0; offset < options.requests; offset += batch) {
    if (options.budgetMs !== undefined && Date.now() - started > options.budgetMs) break;
    const n = Math.min(batch, options.requests - offset);
    const requests = fc.sample(arb, { seed: options.seed + offset, numRuns: n });
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (;;) {
          const request = requests[next++];
          if (!request) return;
          const answer = await send(request, result, contract, target.origin);
          if (!snapshots) continue;
          const took = Date.now();
          const changes = await snapshots.changes();
          result.snapshotMs += Date.now() - took;
          if (answer && answer.status >= 400 && answer.status < 500) {
            result.rejectionsChecked++;
            checkNothingWritten(request, answer, changes, result);
          }
        }
      }),
    );
    options.onBatch?.(result);
  }
  try {
    const health = await fetch(`${target.origin}/healthz`);
    result.healthy = health.status === 200;
  } catch {
    result.healthy = false;
  }
  result.ms = Date.now() - started;
  return result;
}

interface Answer {
  status: number;
  code: string | null;
  text: string;
}

/** A 4xx must leave the database as it was, but for the writes a rule commits on purpose. */
function checkNothingWritten(
  request: FuzzRequest,
  answer: Answer,
  changes: TableChange[],
  result: FuzzResult,
): void {
  if (changes.length === 0) return;
  const rule = committedOnRejection(request, answer, changes);
  if (rule) {
    result.committedByRule[rule] = (result.committedByRule[rule] ?? 0) + 1;
    return;
  }
  const written = changes.map((c) => `${c.table} (${c.rowDelta >= 0 ? "+" : ""}${c.rowDelta} rows)`);
  result.violations.push({
    rule: `rejected request wrote to ${written.join(", ")}`,
    request,
    status: answer.status,
    response: answer.text.slice(0, 2000),
  });
}

/** One answer, read through fetch or, for `raw` requests, off a socket written to before reading. */
async function exchange(
  request: FuzzRequest,
  origin: string,
): Promise<{ status: number; contentType: string; requestId: string | null; text: string }> {
  if (!request.raw) {
    const res = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    const text = await res.text();
    const [contentType, requestId] = [res.headers.get("content-type") ?? "", res.headers.get("x-request-id")];
    return { status: res.status, contentType, requestId, text };
  }
  const url = new URL(request.url);
  const parts =
    request.bytes !== undefined
      ? [Buffer.from(request.bytes, "latin1")]
      : httpBytes({
          method: request.method,
          target: `${url.pathname}${url.search}`,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
          ...(request.chunked ? { chunked: true } : {}),
        });
  const answer = await sendAllThenRead(origin, parts);
  return {
    status: answer.status,
    contentType: answer.headers["content-type"] ?? "",
    requestId: answer.headers["x-request-id"] ?? null,
    text: answer.body,
  };
}

async function send(
  request: FuzzRequest,
  result: FuzzResult,
  contract: ResponseContract,
  origin: string,
): Promise<Answer | null> {
  let answer: Awaited<ReturnType<typeof exchange>>;
  try {
    answer = await exchange(request, origin);
  } catch (error) {
    // The client refused to send it (a header fetch will not encode): not the server's fault.
    // ("fetch failed" is the connection: reset, closed or refused, a violation; so is a raw socket's error).
    if (!request.raw && error instanceof TypeError && error.message !== "fetch failed") {
      result.byStatus.unsent = (result.byStatus.unsent ?? 0) + 1;
      return null;
    }
    result.violations.push({ rule: `request failed: ${String(error)}`, request, status: 0, response: "" });
    return null;
  }
  const { status, contentType, requestId, text } = answer;
  result.sent++;
  result.byStatus[status] = (result.byStatus[status] ?? 0) + 1;
  let code: string | null = null;
  if (status >= 400) {
    try {
      code = String((JSON.parse(text) as { code?: unknown }).code);
      result.byCode[code] = (result.byCode[code] ?? 0) + 1;
    } catch {
      // counted by the invariant below
    }
  }
  const broken = checkResponse(status, contentType, text, requestId);
  if (request.expect) broken.push(...checkEdge(request.expect, status, text));
  // Bytes that are no request have no operation to hold a contract to.
  const contractBroken =
    status < 500 && request.bytes === undefined
      ? contract.check({ method: request.method, path: request.path, status, contentType, text })
      : null;
  if (contractBroken && !broken.length) broken.push(`response contract: ${contractBroken}`);
  if (broken.length) {
    result.violations.push({ rule: broken.join("; "), request, status, response: text.slice(0, 2000) });
  }
  return { status, code, text };
}

export function formatRequest(r: FuzzRequest): string {
  const text = r.bytes ?? (r.body instanceof Uint8Array ? Buffer.from(r.body).toString("latin1") : r.body);
  const body =
    text === undefined
      ? ""
      : `\n  ${r.bytes === undefined ? "body" : "bytes"}: ${JSON.stringify(text.length > 500 ? `${text.slice(0, 500)}… (${text.length} chars)` : text)}`;
  const headers = Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${k === "authorization" ? "[..]" : v.length > 100 ? `${v.slice(0, 100)}…` : v}`)
    .join("; ");
  const url = r.url.length > 400 ? `${r.url.slice(0, 400)}… (${r.url.length} chars)` : r.url;
  const how = r.raw ? ` (raw socket${r.chunked ? ", chunked" : ""}: written whole, then read)` : "";
  return `${r.method} ${url}${how}\n  headers: ${headers}${body}`;
}

export function formatResult(result: FuzzResult): string {
  const lines = [
    `seed ${result.seed}: ${result.sent} requests over ${result.operations} operations in ${(result.ms / 1000).toFixed(1)} s`,
    `by status: ${Object.entries(result.byStatus)
      .map(([s, n]) => `${s}=${n}`)
      .join(" ")}`,
    `by error code: ${Object.entries(result.byCode)
      .sort((a, b) => b[1] - a[1])
      .map(([c, n]) => `${c}=${n}`)
      .join(" ")}`,
    `health after the run: ${result.healthy ? "ok" : "DOWN"}`,
    `rejections checked for writes: ${result.rejectionsChecked} (snapshots took ${(result.snapshotMs / 1000).toFixed(1)} s)${
      Object.keys(result.committedByRule).length
        ? ` (committed on purpose: ${Object.entries(result.committedByRule)
            .map(([r, n]) => `${r}=${n}`)
            .join(" ")})`
        : ""
    }`,
    `violations: ${result.violations.length}`,
  ];
  for (const v of result.violations) {
    lines.push(
      `- ${v.rule} [${v.request.operation}]\n  ${formatRequest(v.request)}\n  -> ${v.status} ${v.response}`,
    );
  }
  return lines.join("\n");
}
