import { describe, expect, test } from "vitest";
import { inspectInput, MAX_BODY_DEPTH, neutralizeNul } from "./input-walk.js";

const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
const depthError = (at: string) => ({
  instancePath: at,
  schemaPath: "#",
  keyword: "maxDepth",
  params: { limit: MAX_BODY_DEPTH },
  message: `must not nest objects or arrays more than ${MAX_BODY_DEPTH} levels deep`,
});

describe("request values the schemas cannot judge (issue 15)", () => {
  test("a body member may nest exactly MAX_BODY_DEPTH levels, one more is refused on that member", () => {
    expect(inspectInput({ info: nested(MAX_BODY_DEPTH) }, true)).toEqual({ errors: [], tooDeep: false });
    expect(inspectInput({ ok: 1, info: nested(MAX_BODY_DEPTH + 1) }, true)).toEqual({
      errors: [depthError("/info")],
      tooDeep: true,
    });
  });

  test("a million levels are walked without overflowing the stack, and reported once per member", () => {
    let deep: unknown = [];
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(inspectInput({ a: deep, b: { c: deep } }, true)).toEqual({
      errors: [depthError("/a"), depthError("/b")],
      tooDeep: true,
    });
  });

  test("__proto__ and constructor members are unknown fields at any depth, in document order", () => {
    const body = JSON.parse('{"__proto__":{"x":1},"info":{"list":[{"constructor":{"prototype":{}}}]}}');
    const unknown = (at: string, key: string) => ({
      instancePath: at,
      schemaPath: "#",
      keyword: "additionalProperties",
      params: { additionalProperty: key },
      message: "must NOT have additional properties",
    });
    expect(inspectInput(body, true).errors).toEqual([
      unknown("", "__proto__"),
      unknown("/info/list/0", "constructor"),
    ]);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  test("outside a body (query, path) only U+0000 is looked for", () => {
    const query = JSON.parse('{"constructor":"a\\u0000b"}');
    expect(inspectInput(query, false).errors.map((e) => [e.instancePath, e.keyword])).toEqual([
      ["/constructor", "nul"],
    ]);
  });

  test("U+0000 in a key or a value names the member, with JSON Pointer escapes", () => {
    const found = inspectInput({ "a/b": ["x\u0000"], "k\u0000": 1 }, true);
    expect(found.errors.map((e) => e.instancePath)).toEqual(["/a~1b/0", "/k\u0000"]);
  });

  test("a path value with U+0000 becomes U+FFFD, which names nothing stored", () => {
    const params = { customerId: "Customer:\u0000", other: "ok" };
    neutralizeNul(params);
    expect(params).toEqual({ customerId: "Customer:\ufffd", other: "ok" });
  });
});
