import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canonicalJson, constantTimeEqual, sha256Hex } from "./hash.js";

describe("hash helpers", () => {
  test("RFC 8785 canonical JSON sorts keys by UTF-16 code units and drops whitespace", () => {
    expect(canonicalJson({ b: 1, a: [true, null, "x"], "\u20ac": 1, "\r": 2 })).toBe(
      '{"\\r":2,"a":[true,null,"x"],"b":1,"€":1}',
    );
  });

  test("canonical JSON is stable under key order and parses back to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });

  test("sha256Hex matches the known digest of the empty string", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  test("constantTimeEqual compares exactly", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
  });
});
