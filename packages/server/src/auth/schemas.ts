import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";

export const permissionValues = ["VIEW", "TRANSACT", "MANAGE"] as const;

export const CreateTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    permissions: Type.Array(StringEnum(permissionValues), { minItems: 1, maxItems: 3 }),
  },
  { additionalProperties: false },
);
export type CreateTokenBody = Static<typeof CreateTokenBody>;

export const ApiToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  permissions: Type.Array(StringEnum(permissionValues)),
  clientId: Type.String(),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const CreatedApiToken = Type.Object({ ...ApiToken.properties, clientSecret: Type.String() });

export const TokenParams = Type.Object({ tokenId: Type.String() });
