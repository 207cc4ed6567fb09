import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { currencyCodes, MAX_AMOUNT } from "../core/money.js";

/** PaymentRail (conventions §3.5). */
export const paymentRails = [
  "ACH",
  "ACH_SAME_DAY",
  "ACH_COLOMBIA",
  "BANK_TRANSFER",
  "BRE_B",
  "CIPS",
  "FAST",
  "FASTER_PAYMENTS",
  "FEDNOW",
  "INSTAPAY",
  "MOBILE_MONEY",
  "NEFT",
  "PAYNOW",
  "PESONET",
  "PIX",
  "RTGS",
  "RTP",
  "SEPA",
  "SEPA_INSTANT",
  "SPEI",
  "SWIFT",
  "UNIONPAY",
  "UPI",
  "WIRE",
] as const;

/** Rails a platform fee can be set for: every PaymentRail, plus INTERNAL for transfers between internal accounts. */
export const feeRails = ["INTERNAL", ...paymentRails] as const;
export type FeeRail = (typeof feeRails)[number];

/**
 * The platform fee for one rail (docs/decisions.md "Quotes and fees"): a rate in basis points of the
 * total sent, a fixed amount in USD cents (platform fees apply to USD sources only), or both.
 */
export const RailFeeConfig = Type.Object(
  {
    rail: StringEnum(feeRails),
    variableRateBps: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    fixedAmount: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AMOUNT })),
  },
  { additionalProperties: false },
);
export type RailFeeConfig = Static<typeof RailFeeConfig>;

export const PlatformConfig = Type.Object({
  id: Type.String(),
  name: Type.String(),
  environment: StringEnum(["SANDBOX", "PRODUCTION"]),
  webhookEndpoint: Type.Union([Type.String(), Type.Null()]),
  supportedCurrencies: Type.Array(Type.String()),
  feeConfigs: Type.Array(RailFeeConfig),
  sandboxSkipVerificationPaperwork: Type.Boolean(),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const UpdateConfigBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    supportedCurrencies: Type.Optional(
      Type.Array(StringEnum(currencyCodes), { minItems: 1, maxItems: currencyCodes.length }),
    ),
    sandboxSkipVerificationPaperwork: Type.Optional(Type.Boolean()),
    /** Replaces the whole list; `[]` removes every platform fee. */
    feeConfigs: Type.Optional(Type.Array(RailFeeConfig, { maxItems: feeRails.length })),
    /** An absolute http(s) URL, https outside the sandbox; `null` clears it (conventions §7.3). */
    webhookEndpoint: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateConfigBody = Static<typeof UpdateConfigBody>;
