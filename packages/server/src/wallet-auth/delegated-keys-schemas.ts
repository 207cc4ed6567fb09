import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { InternalAccountId } from "./credential-schemas.js";

// Request and response shapes of /auth/delegated-keys (issue 21 §6): the hosted API's DelegatedKey,
// DelegatedKeyCreateRequest, DelegatedKeyListResponse and DelegatedKeySignedRequestChallenge.

const closed = { additionalProperties: false } as const;
const idField = Type.String({ minLength: 1, maxLength: 100 });

/** The hosted DelegatedKeyStatus; paysvc stores ACTIVE and REVOKED (docs/decisions.md "Delegated keys"). */
export const delegatedKeyStatuses = ["PENDING", "ACTIVE", "REVOKED"] as const;

export const DelegatedKey = Type.Object({
  id: Type.String({ description: "`DelegatedKey:<uuid>`." }),
  cardId: Type.String({ description: "The card whose spending the key authorizes." }),
  fundingSourceId: Type.String({
    description:
      "The card funding source the key signs for: in paysvc the embedded wallet's InternalAccount id.",
  }),
  accountId: Type.String({ description: "The embedded wallet (`InternalAccount:<uuid>`)." }),
  publicKey: Type.String({ description: "The key's P-256 public key, compressed lowercase hex." }),
  nickname: Type.String(),
  status: StringEnum(delegatedKeyStatuses),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type DelegatedKey = Static<typeof DelegatedKey>;

export const CreateDelegatedKeyBody = Type.Object(
  {
    cardId: idField,
    internalAccountId: idField,
    nickname: Type.String({ minLength: 1, maxLength: 256 }),
  },
  closed,
);
export type CreateDelegatedKeyBody = Static<typeof CreateDelegatedKeyBody>;

export const ListDelegatedKeysQuery = Type.Object(
  {
    accountId: Type.Optional(InternalAccountId),
    fundingSourceId: Type.Optional(InternalAccountId),
  },
  closed,
);
export type ListDelegatedKeysQuery = Static<typeof ListDelegatedKeysQuery>;

export const DelegatedKeyParams = Type.Object({ id: Type.String() });

/** The hosted DelegatedKeySignedRequestChallenge: the `202` of the create, with no `type`. */
export const DelegatedKeySignedRequestChallenge = Type.Object({
  payloadToSign: Type.String(),
  requestId: Type.String(),
  expiresAt: DateTime(),
});
