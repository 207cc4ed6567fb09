import { Type } from "typebox";

const Currency = Type.Object({
  code: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  decimals: Type.Integer(),
});

/** The hosted API's ReceiverUmaLookupResponse. */
export const ReceiverUmaLookupResponse = Type.Object({
  lookupId: Type.String(),
  receiverUmaAddress: Type.String(),
  supportedCurrencies: Type.Array(
    Type.Object({
      currency: Currency,
      estimatedExchangeRate: Type.Number(),
      min: Type.Integer(),
      max: Type.Integer(),
    }),
  ),
  requiredPayerDataFields: Type.Array(Type.Object({ name: Type.String(), mandatory: Type.Boolean() })),
});

export const LookupParams = Type.Object({
  receiverUmaAddress: Type.String({ minLength: 1, maxLength: 320 }),
});
export const LookupQuery = Type.Object(
  {
    senderUmaAddress: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    customerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const DomainParams = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) });
export const UserParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 253 }),
  user: Type.String({ minLength: 1, maxLength: 64 }),
});

/** The hosted API's SandboxUmaReceiveRequest. */
export const SandboxUmaReceiveBody = Type.Object(
  {
    senderUmaAddress: Type.String({ minLength: 3, maxLength: 320 }),
    receiverUmaAddress: Type.Optional(Type.String({ minLength: 3, maxLength: 320 })),
    customerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    receivingCurrencyCode: Type.String({ pattern: "^[A-Z]{3,5}$" }),
    receivingCurrencyAmount: Type.Integer({ minimum: 1, maximum: 9_000_000_000_000_000 }),
  },
  { additionalProperties: false },
);
