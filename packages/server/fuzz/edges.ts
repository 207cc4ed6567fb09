import fc from "fast-check";

/**
 * Issue 15's edges of the error contract, as generators: each makes a well-formed request (the primary
 * platform, real ids in the path, no query string) with one hostile trait, and says what the answer must
 * be, so a wrong 2xx or a wrong code is a violation too, not only a 5xx:
 *
 * - a body that is not valid UTF-8: `400 INVALID_REQUEST_FORMAT` (it was accepted, stored as U+FFFD);
 * - a `__proto__` or `constructor` member anywhere: `400 INVALID_INPUT` naming it (`prototype` too, with
 *   no expectation: it is an ordinary name, unknown in closed objects only);
 * - objects or arrays nested past the depth limit: `400 INVALID_INPUT` naming the top-level member;
 * - amounts near and past ±9,000,000,000,000,000 (conventions §1.4), some as exponent or over-precise
 *   number literals: past the bound, never accepted;
 * - credits and debits of extreme amounts between the fixture's bank and USD accounts, which overflow its
 *   balance: never a 5xx, and the refused posting writes nothing (the write invariant);
 * - an oversized body written whole before the answer is read: its `400`, never a reset connection;
 * - bytes the HTTP parser refuses: `400 INVALID_REQUEST_FORMAT` in the catalogue's body.
 * Every answer, these included, must carry an X-Request-Id (checked for every request in fuzzer.ts).
 */

export interface EdgeOperation {
  method: string;
  path: string;
  parameters: { in: string; name: string; required?: boolean }[];
  body?: Record<string, unknown>;
}

/** Ids the edge requests use: path parameters, and the accounts a credit moves money between. */
export interface EdgeFixtures {
  ids: string[];
  usdAccountId?: string;
  externalAccountId?: string;
}

/** What the answer to an edge request must be, beyond the invariants every answer keeps. */
export interface EdgeExpectation {
  rule: string;
  status?: number;
  code?: string;
  /** A FieldError in `details.errors` must name this field. */
  field?: string;
  /** Any 2xx is a violation. */
  refused?: boolean;
}

/** One edge request, before it is addressed to a target. */
export interface EdgeDraft {
  method: string;
  /** The OpenAPI operation ("POST /customers"), or "(raw)" for bytes that are not a request. */
  operation: string;
  /** The path relative to the versioned base URL. */
  path: string;
  body?: string | Uint8Array<ArrayBuffer>;
  /** Chunked transfer encoding instead of Content-Length (raw transport only). */
  chunked?: boolean;
  /** Written whole to a raw socket before the answer is read. */
  raw?: boolean;
  /** The whole request as bytes (parser-level cases), the versioned base path written as `{base}`. */
  bytes?: string;
  expect?: EdgeExpectation;
}

type Json = Record<string, unknown>;
type Segment = string | number;

const MAX_AMOUNT = 9_000_000_000_000_000;
// Deeper than the service's limit (32) from the first level on, up to depths that overflowed the stack.
const depths = [33, 200, 6_000, 20_000];
const invalidUtf8 = [
  [0x80],
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];
/** Number literals as JSON text, with whether the value is past the bound. */
const amountTokens: [string, boolean][] = [
  ["9000000000000000", false],
  ["-9000000000000000", false],
  ["9e15", false],
  ["8999999999999999", false],
  ["4500000000000001", false],
  ["9000000000000001", true],
  ["-9000000000000001", true],
  ["9007199254740992", true],
  ["9007199254740993", true],
  ["1e16", true],
  ["9.000000000000001e15", true],
  ["18446744073709551616", true],
];
const parserLevel = [
  `GET {base}/customers HTTP/1.1\r\nHost: paysvc\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`,
  "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u00fc\u0003\u0003 not HTTP\r\n\r\n",
  "POST {base}/customers HTTP/1.1\r\nHost: paysvc\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  "POST {base}/customers HTTP/1.1\r\nHost: paysvc\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
  "GET {base}/customers HTTP/9.9\r\nHost: paysvc\r\n\r\n",
  "GET {base}/customers HTTP/1.1\r\nHost: paysvc\r\nBad Header: x\r\n\r\n",
  "GET {base}/customers HTTP/1.1\r\nHost: paysvc\r\nContent-Length: -1\r\n\r\n",
];

const amountLike = /amount$|Amount$|^fee|Fee$|^maxSpend/;

/** Containers (objects) inside a generated body, with their paths, down to a few levels. */
function objectsIn(value: unknown, path: Segment[] = [], out: Segment[][] = []): Segment[][] {
  if (path.length > 4 || value === null || typeof value !== "object") return out;
  if (!Array.isArray(value)) out.push(path);
  for (const [key, child] of Object.entries(value))
    objectsIn(child, [...path, Array.isArray(value) ? Number(key) : key], out);
  return out;
}

/** Integer members named like amounts, with their paths. */
function amountsIn(value: unknown, path: Segment[] = [], out: Segment[][] = []): Segment[][] {
  if (path.length > 4 || value === null || typeof value !== "object") return out;
  for (const [key, child] of Object.entries(value)) {
    const here = [...path, Array.isArray(value) ? Number(key) : key];
    if (typeof child === "number" && Number.isInteger(child) && amountLike.test(key)) out.push(here);
    else amountsIn(child, here, out);
  }
  return out;
}

function at(root: unknown, path: Segment[]): Json {
  let node = root as Json;
  for (const segment of path) node = (node as Record<Segment, unknown>)[segment] as Json;
  return node;
}

/** The FieldError name of a path, as the service writes it (`a.b[0].c`). */
function fieldName(path: Segment[]): string {
  return path.reduce<string>(
    (name, s) => (typeof s === "number" ? `${name}[${s}]` : name ? `${name}.${s}` : s),
    "",
  );
}

function nestedText(levels: number, shape: "object" | "array"): string {
  return shape === "object"
    ? `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`
    : `${"[".repeat(levels)}1${"]".repeat(levels)}`;
}

/** JSON text of `body` with the marker string (quotes included) replaced by `raw`. */
function withRaw(body: unknown, marker: string, raw: string): string {
  return JSON.stringify(body).replace(JSON.stringify(marker), raw);
}

const MARKER = "\u0001edge\u0001";

function cloneJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

/**
 * The edge requests for these operations: `validBody(op)` makes a schema-valid-ish body (fuzzer.ts's
 * generator), the operations with a body and no required query parameter carry the hostile traits.
 */
export function edgeArb(
  operations: EdgeOperation[],
  fixtures: EdgeFixtures,
  validBody: (op: EdgeOperation) => fc.Arbitrary<unknown>,
): fc.Arbitrary<EdgeDraft> {
  const withBody = operations.filter(
    (op) =>
      op.body &&
      ["POST", "PUT", "PATCH"].includes(op.method) &&
      !op.parameters.some((p) => p.in === "query" && p.required),
  );
  const ids = fixtures.ids.length ? fc.constantFrom(...fixtures.ids) : fc.constant("x");
  const addressed = fc.constantFrom(...withBody).chain((op) => {
    const names = op.parameters.filter((p) => p.in === "path").map((p) => p.name);
    return fc.tuple(
      fc.constant(op),
      fc
        .tuple(...names.map(() => ids))
        .map((values) =>
          names.reduce(
            (path, name, i) => path.replace(`{${name}}`, encodeURIComponent(values[i] ?? "x")),
            op.path,
          ),
        ),
      validBody(op).map((body) =>
        body !== null && typeof body === "object" && !Array.isArray(body) ? body : {},
      ),
      fc.nat(),
    );
  });
  const draft = (
    op: EdgeOperation,
    path: string,
    body: string | Uint8Array<ArrayBuffer>,
    expect?: EdgeExpectation,
  ) => ({
    method: op.method,
    operation: `${op.method} ${op.path}`,
    path,
    body,
    ...(expect ? { expect } : {}),
  });

  const utf8 = fc.tuple(addressed, fc.constantFrom(...invalidUtf8)).map(([[op, path, body, pick], bytes]) => {
    const copy = cloneJson(body);
    const containers = objectsIn(copy);
    const target = at(copy, containers[pick % containers.length] ?? []);
    const keys = Object.keys(target);
    target[keys[pick % Math.max(keys.length, 1)] ?? "note"] = MARKER;
    // The bad bytes inside a string value, as a client with a broken encoder would send a name.
    const [before = "", after = ""] = JSON.stringify(copy).split(JSON.stringify(MARKER));
    const bytesBody = Buffer.concat([
      Buffer.from(`${before}"Ada`),
      Buffer.from(bytes),
      Buffer.from(`Lovelace"${after}`),
    ]);
    return draft(op, path, new Uint8Array(bytesBody), {
      rule: "a body that is not valid UTF-8 is 400 INVALID_REQUEST_FORMAT",
      status: 400,
      code: "INVALID_REQUEST_FORMAT",
    });
  });

  const reserved = fc
    .tuple(addressed, fc.constantFrom("__proto__", "constructor", "prototype"), fc.jsonValue({ maxDepth: 1 }))
    .map(([[op, path, body, pick], key, value]) => {
      const copy = cloneJson(body);
      const containers = objectsIn(copy);
      const where = containers[pick % containers.length] ?? [];
      Object.defineProperty(at(copy, where), key, {
        value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
      const field = fieldName([...where, key]);
      return draft(
        op,
        path,
        JSON.stringify(copy),
        key === "prototype"
          ? undefined
          : { rule: `a ${key} member is an unknown field`, status: 400, code: "INVALID_INPUT", field },
      );
    });

  const deep = fc
    .tuple(addressed, fc.constantFrom(...depths), fc.constantFrom<"object" | "array">("object", "array"))
    .map(([[op, path, body, pick], levels, shape]) => {
      const copy = cloneJson(body);
      const containers = objectsIn(copy);
      const where = containers[pick % containers.length] ?? [];
      const target = at(copy, where);
      const keys = Object.keys(target);
      const key = keys[pick % Math.max(keys.length, 1)] ?? "nested";
      target[key] = MARKER;
      const top = fieldName([[...where, key][0] as Segment]);
      return draft(op, path, withRaw(copy, MARKER, nestedText(levels, shape)), {
        rule: "objects or arrays nested past the limit are 400 INVALID_INPUT naming the member",
        status: 400,
        code: "INVALID_INPUT",
        field: top,
      });
    });

  const amounts = fc
    .tuple(addressed, fc.constantFrom(...amountTokens))
    .map(([[op, path, body, pick], [token, over]]) => {
      const copy = cloneJson(body);
      const found = amountsIn(copy);
      const where = found[pick % Math.max(found.length, 1)];
      if (!where) return draft(op, path, JSON.stringify(copy));
      const last = where[where.length - 1] as Segment;
      (at(copy, where.slice(0, -1)) as Record<Segment, unknown>)[last] = MARKER;
      return draft(
        op,
        path,
        withRaw(copy, MARKER, token),
        over
          ? { rule: `an amount past ±${MAX_AMOUNT} (${token}) is never accepted`, refused: true }
          : undefined,
      );
    });

  const arbs: fc.Arbitrary<EdgeDraft>[] = [utf8, reserved, deep, amounts];

  const { usdAccountId: usd, externalAccountId: bank } = fixtures;
  if (usd && bank) {
    arbs.push(
      fc
        .tuple(
          fc.constantFrom("in", "in", "in", "out"),
          fc.constantFrom(MAX_AMOUNT, MAX_AMOUNT - 1, MAX_AMOUNT / 2 + 1, 1),
        )
        .map(([direction, amount]) => ({
          method: "POST",
          operation: `POST /transfer-${direction}`,
          path: `/transfer-${direction}`,
          body: JSON.stringify(
            direction === "in"
              ? { source: { accountId: bank }, destination: { accountId: usd }, amount }
              : { source: { accountId: usd }, destination: { accountId: bank }, amount },
          ),
        })),
    );
  }

  arbs.push(
    fc
      .tuple(
        fc.constantFrom(...withBody),
        fc.integer({ min: 2 * 1024 * 1024 + 1, max: 6 * 1024 * 1024 }),
        fc.boolean(),
      )
      .map(([op, size, chunked]) => ({
        method: op.method,
        operation: `${op.method} ${op.path}`,
        path: op.path.replace(/\{[^}]+\}/g, "x"),
        body: `{"padding":"${"y".repeat(size)}"}`,
        chunked,
        raw: true,
        expect: {
          rule: "an oversized body's 400 reaches a client that sends it whole before reading",
          status: 400,
          code: "INVALID_REQUEST_FORMAT",
        },
      })),
    fc.constantFrom(...parserLevel).map((bytes) => ({
      method: "RAW",
      operation: "(raw)",
      path: "/",
      bytes,
      raw: true,
      expect: {
        rule: "bytes the HTTP parser refuses are 400 INVALID_REQUEST_FORMAT",
        status: 400,
        code: "INVALID_REQUEST_FORMAT",
      },
    })),
  );
  return fc.oneof(...arbs);
}

/** The broken expectations of an edge request's answer. */
export function checkEdge(expect: EdgeExpectation, status: number, text: string): string[] {
  let body: { code?: unknown; details?: { errors?: { field?: unknown }[] } } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // the general invariants report an error body that does not parse
  }
  const broken: string[] = [];
  if (expect.refused && status < 400) broken.push(`${expect.rule}: answered ${status}`);
  // 401 and 403 come before any body check (conventions §1.7): agent routes refuse Basic credentials.
  if (status === 401 || status === 403) return broken;
  if (expect.status !== undefined && status !== expect.status)
    broken.push(`${expect.rule}: answered ${status}, expected ${expect.status}`);
  if (expect.code !== undefined && body.code !== expect.code)
    broken.push(`${expect.rule}: code ${String(body.code)}, expected ${expect.code}`);
  if (expect.field !== undefined && !(body.details?.errors ?? []).some((e) => e.field === expect.field))
    broken.push(`${expect.rule}: no FieldError names ${expect.field}`);
  return broken;
}
