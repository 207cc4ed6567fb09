import { type Static, Type } from "typebox";
import { Currency, DateTime, StringEnum } from "../core/http/schemas.js";
import { MAX_AMOUNT } from "../core/money.js";
import { paymentRails } from "../rails/payment-rails.js";

const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const Amount = (minimum: number) => Type.Integer({ minimum, maximum: MAX_AMOUNT });

export const quoteStatuses = [
  "PENDING",
  "PENDING_AUTHORIZATION",
  "PROCESSING",
  "COMPLETED",
  "FAILED",
  "EXPIRED",
] as const;
export type QuoteStatus = (typeof quoteStatuses)[number];

export const cryptoNetworks = ["BITCOIN", "ETHEREUM", "SOLANA", "BASE", "POLYGON", "TRON", "PLASMA", "SPARK"];

// Each form names its discriminator; `if/then/else` makes the form's own fields required without the
// field-by-field noise an `anyOf` of two objects reports.
const requiredBy = (discriminator: string, value: string, then: string[], otherwise: string[]) => ({
  if: { properties: { [discriminator]: { const: value } }, required: [discriminator] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword; this object is never awaited.
  then: { required: then },
  else: { required: otherwise },
});

/** `{sourceType:"ACCOUNT", accountId, customerId?}` or `{sourceType:"REALTIME_FUNDING", currency, …}`. */
export const QuoteSource = Type.Object(
  {
    sourceType: StringEnum(["ACCOUNT", "REALTIME_FUNDING"]),
    accountId: Type.Optional(Text(100)),
    customerId: Type.Optional(Text(100)),
    currency: Type.Optional(Text(16)),
    cryptoNetwork: Type.Optional(StringEnum(cryptoNetworks)),
  },
  {
    additionalProperties: false,
    ...requiredBy("sourceType", "REALTIME_FUNDING", ["currency"], ["accountId"]),
  },
);

/** `{destinationType:"ACCOUNT", accountId, currency?, paymentRail?}` or `{destinationType:"UMA_ADDRESS", umaAddress, currency}`. */
export const QuoteDestination = Type.Object(
  {
    destinationType: StringEnum(["ACCOUNT", "UMA_ADDRESS"]),
    accountId: Type.Optional(Text(100)),
    umaAddress: Type.Optional(Text(255)),
    currency: Type.Optional(Text(16)),
    paymentRail: Type.Optional(StringEnum(paymentRails)),
  },
  {
    additionalProperties: false,
    ...requiredBy("destinationType", "UMA_ADDRESS", ["umaAddress", "currency"], ["accountId"]),
  },
);

/**
 * The hosted API's `ScaFactor` and `ScaChallenge` (a held quote's `scaChallenge`). Defined here because quotes
 * import nothing from sca/ (test/architecture); sca/schemas.ts re-exports them for its own operations.
 */
export const scaFactors = ["SMS_OTP", "TOTP", "PASSKEY"] as const;
export const ScaFactor = StringEnum(scaFactors, {
  description:
    "SMS_OTP: a 6-digit code sent by SMS to the customer's phoneNumber (else its email). PASSKEY: the enrolled passkey. TOTP: the enrolled authenticator app's code.",
});
export type ScaFactor = Static<typeof ScaFactor>;

/** Answer it before `expiresAt`; a PASSKEY one carries the WebAuthn request options for `navigator.credentials.get`. */
export const ScaChallenge = Type.Object({
  id: Type.String({ description: "`Request:<uuid>`; single use." }),
  expiresAt: DateTime(),
  factor: ScaFactor,
  availableFactors: Type.Array(ScaFactor),
  purpose: StringEnum(["LOGIN", "TRUST_BENEFICIARY", "UNTRUST_BENEFICIARY", "PAYOUT"]),
  passkeyAssertionOptions: Type.Optional(
    Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  ),
  passkeyAllowedOrigins: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
});
export type ScaChallenge = Static<typeof ScaChallenge>;

export const CreateQuoteBody = Type.Object(
  {
    source: QuoteSource,
    destination: QuoteDestination,
    lockedCurrencySide: StringEnum(["SENDING", "RECEIVING"]),
    lockedCurrencyAmount: Amount(1),
    immediatelyExecute: Type.Optional(Type.Boolean()),
    description: Type.Optional(Text(255)),
    remittanceInformation: Type.Optional(Text(80)),
    purposeOfPayment: Type.Optional(Text(100)),
    platformFeeOverride: Type.Optional(Amount(0)),
    lookupId: Type.Optional(Text(100)),
    senderCustomerInfo: Type.Optional(Type.Object({}, { additionalProperties: true })),
    scaFactor: Type.Optional(ScaFactor),
  },
  { additionalProperties: false },
);
export type CreateQuoteBody = Static<typeof CreateQuoteBody>;

export const ExecuteQuoteBody = Type.Object(
  { scaFactor: Type.Optional(ScaFactor) },
  { additionalProperties: false },
);
export type ExecuteQuoteBody = Static<typeof ExecuteQuoteBody>;

export const QuoteParams = Type.Object({ quoteId: Type.String() });

const Open = Type.Object({}, { additionalProperties: true });

/** One way to pay a REALTIME_FUNDING quote: the platform's bank account (with a reference) or a deposit address. */
export const PaymentInstructions = Type.Object({
  instructionsNotes: Type.Optional(Type.String()),
  isPlatformAccount: Type.Optional(Type.Boolean()),
  accountOrWalletInfo: Type.Object(
    // An EMBEDDED_WALLET source's execute is stamped over payloadToSign (conventions §3.3).
    { accountType: Type.String(), payloadToSign: Type.Optional(Type.String()) },
    { additionalProperties: true },
  ),
});

/** A Quote (conventions §3.3); amounts and fees are minor units of the sending (or receiving) currency. */
export const Quote = Type.Object({
  id: Type.String(),
  status: StringEnum(quoteStatuses),
  createdAt: DateTime(),
  expiresAt: DateTime(),
  source: Open,
  destination: Open,
  sendingCurrency: Currency,
  receivingCurrency: Currency,
  lockedCurrencySide: StringEnum(["SENDING", "RECEIVING"]),
  lockedCurrencyAmount: Type.Integer(),
  totalSendingAmount: Type.Integer(),
  totalReceivingAmount: Type.Integer(),
  exchangeRate: Type.Number(),
  feesIncluded: Type.Integer(),
  platformFeesIncluded: Type.Integer(),
  platformFeeOverride: Type.Optional(Type.Integer()),
  /** Reserved at creation: the transaction exists once the quote is executed. */
  transactionId: Type.String(),
  /** Payouts to an external bank account: the rail, and whether it was chosen (AUTO) or pinned (MANUAL). */
  paymentRail: Type.Optional(StringEnum(paymentRails)),
  railSelectionMode: Type.Optional(StringEnum(["AUTO", "MANUAL"])),
  description: Type.Optional(Type.String()),
  remittanceInformation: Type.Optional(Type.String()),
  purposeOfPayment: Type.Optional(Type.String()),
  /** REALTIME_FUNDING: where and how to send the money that funds the quote. */
  paymentInstructions: Type.Optional(Type.Array(PaymentInstructions)),
  /** PENDING_AUTHORIZATION: the per-payment SCA challenge to answer (`POST /quotes/{quoteId}/authorize`). */
  scaChallenge: Type.Optional(ScaChallenge),
});
export type Quote = Static<typeof Quote>;
