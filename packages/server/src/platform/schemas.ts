import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { currencyCodes } from "../core/money.js";

export const PlatformConfig = Type.Object({
  id: Type.String(),
  name: Type.String(),
  environment: StringEnum(["SANDBOX", "PRODUCTION"]),
  webhookEndpoint: Type.Union([Type.String(), Type.Null()]),
  supportedCurrencies: Type.Array(Type.String()),
  feeConfigs: Type.Array(Type.Object({}, { additionalProperties: true })),
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
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateConfigBody = Static<typeof UpdateConfigBody>;
