import { p256 } from "@noble/curves/nist.js";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type Stamp, stampVerifies } from "../../src/wallet-auth/stamp.js";

// Stamp verification moved from @noble/curves to node:crypto (issue 20); these rules pin what it accepts
// and refuses, with noble (lowS off, as the service used it) as the reference for the property below.

const scheme = "SIGNATURE_SCHEME_TK_API_P256" as const;
const encoder = new TextEncoder();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const N = p256.Point.Fn.ORDER;
const P = p256.Point.Fp.ORDER;

function keyPair() {
  const secretKey = p256.utils.randomSecretKey();
  return { secretKey, publicKey: hex(p256.getPublicKey(secretKey, true)) };
}

const signer = keyPair();
const payload = JSON.stringify({ action: "UPDATE_ACCOUNT", requestId: "Request:bench" });
const signature = p256.Signature.fromBytes(
  p256.sign(encoder.encode(payload), signer.secretKey, { format: "compact" }),
);
const stampOf = (sigHex: string, publicKey = signer.publicKey): Stamp => ({
  publicKey,
  scheme,
  signature: sigHex,
});

/** DER of SEQUENCE { INTEGER r, INTEGER s } from raw integer contents, with no minimality checks. */
const der = (r: string, s: string) => {
  const int = (v: string) => `02${(v.length / 2).toString(16).padStart(2, "0")}${v}`;
  const body = int(r) + int(s);
  return `30${(body.length / 2).toString(16).padStart(2, "0")}${body}`;
};
const scalar = (n: bigint) => {
  const raw = n.toString(16).padStart(64, "0");
  return Number.parseInt(raw.slice(0, 2), 16) >= 0x80 ? `00${raw}` : raw.replace(/^(00)+(?=..)/, "");
};
const r = scalar(signature.r);
const s = scalar(signature.s);

/** The reference: noble's DER verification with high-S allowed, exactly what the service ran before. */
function reference(stamp: Stamp, message: string): boolean {
  try {
    return p256.verify(
      Buffer.from(stamp.signature, "hex"),
      encoder.encode(message),
      Buffer.from(stamp.publicKey, "hex"),
      {
        format: "der",
        lowS: false,
      },
    );
  } catch {
    return false;
  }
}

describe("stamp verification (conventions §5.3)", () => {
  test("a DER signature over SHA-256(payloadToSign) by the stamp's key verifies", () => {
    expect(stampVerifies(stampOf(der(r, s)), payload)).toBe(true);
  });

  test("a high-S signature verifies: client libraries do not normalise S", () => {
    const high = new p256.Signature(signature.r, p256.Point.Fn.neg(signature.s));
    expect(high.hasHighS() || signature.hasHighS()).toBe(true);
    expect(stampVerifies(stampOf(hex(high.toBytes("der"))), payload)).toBe(true);
    expect(stampVerifies(stampOf(hex(signature.toBytes("der"))), payload)).toBe(true);
  });

  test("the signature verifies only over its own payload and under its own key, whatever was verified before", () => {
    const other = keyPair();
    const otherSig = hex(p256.sign(encoder.encode(payload), other.secretKey, { format: "der" }));
    expect(stampVerifies(stampOf(otherSig, other.publicKey), payload)).toBe(true);
    expect(stampVerifies(stampOf(otherSig), payload)).toBe(false);
    expect(stampVerifies(stampOf(der(r, s), other.publicKey), payload)).toBe(false);
    expect(stampVerifies(stampOf(der(r, s)), `${payload} `)).toBe(false);
  });

  describe.each([
    ["a trailing byte after the DER sequence", `${der(r, s)}00`],
    ["a long-form length where the short form fits", `3081${der(r, s).slice(2)}`],
    ["an unnecessary leading zero on r", der(`00${r}`, s)],
    [
      "a negative r (high bit set, no zero pad)",
      der(signature.r.toString(16).padStart(64, "0").replace(/^./, "f"), s),
    ],
    ["r = 0", der("00", s)],
    ["s = 0", der(r, "00")],
    ["s = n", der(r, scalar(N))],
    ["r = n", der(scalar(N), s)],
    ["s = n + s (the same value mod n)", der(r, scalar(N + signature.s))],
    ["a compact r ‖ s signature instead of DER", hex(signature.toBytes("compact"))],
    ["a wrong s (s − 1)", der(r, scalar(signature.s - 1n))],
  ])("refused: %s", (_rule, sigHex) => {
    test("does not verify, as before", () => {
      expect(reference(stampOf(sigHex), payload)).toBe(false);
      expect(stampVerifies(stampOf(sigHex), payload)).toBe(false);
    });
  });

  describe.each([
    ["an x coordinate ≥ p (not reduced mod p)", `02${(P + 5n).toString(16)}`],
    ["an x with no point on the curve", `02${1n.toString(16).padStart(64, "0")}`],
    ["the other y parity", `${signer.publicKey.startsWith("02") ? "03" : "02"}${signer.publicKey.slice(2)}`],
  ])("refused key: %s", (_rule, publicKey) => {
    test("does not verify, as before", () => {
      expect(reference(stampOf(der(r, s), publicKey), payload)).toBe(false);
      expect(stampVerifies(stampOf(der(r, s), publicKey), payload)).toBe(false);
    });
  });

  test("any mutation of a valid stamp's signature bytes verifies exactly when the reference verifier accepts it", () => {
    const valid = Buffer.from(der(r, s), "hex");
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
        fc.constantFrom("keep", "append", "truncate"),
        (edits, shape) => {
          let bytes = Buffer.from(valid);
          for (const [at, value] of edits) bytes[at] = value;
          if (shape === "append") bytes = Buffer.concat([bytes, Buffer.from([0])]);
          if (shape === "truncate") bytes = bytes.subarray(0, bytes.length - 1);
          const stamp = stampOf(bytes.toString("hex"));
          expect(stampVerifies(stamp, payload)).toBe(reference(stamp, payload));
        },
      ),
      { numRuns: 300 },
    );
  });
});
