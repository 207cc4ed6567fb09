import { type Static, Type } from "typebox";
import { CurrencyAmount, DateTime, StringEnum } from "../core/http/schemas.js";
import { MAX_AMOUNT } from "../core/money.js";

export const invitationStatuses = ["PENDING", "CLAIMED", "CANCELLED", "EXPIRED"] as const;

/** An invitation (docs/decisions/bank-validation-invitations.md); `code` is its identifier. */
export const Invitation = Type.Object({
  code: Type.String(),
  /** The platform's `invitationBaseUrl` + `/` + code: the page the invitee opens. */
  url: Type.String(),
  inviterUma: Type.String(),
  inviteeUma: Type.Optional(Type.String()),
  amountToSend: Type.Optional(CurrencyAmount),
  status: StringEnum(invitationStatuses),
  expiresAt: Type.Optional(DateTime()),
  claimedAt: Type.Optional(DateTime()),
  cancelledAt: Type.Optional(DateTime()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type Invitation = Static<typeof Invitation>;

export const CreateInvitationBody = Type.Object(
  {
    /** The UMA address of one of the platform's customers: the inviter. */
    inviterUma: Type.String({ minLength: 1, maxLength: 255 }),
    /** USD cents the inviter means to send once the invitation is claimed. */
    amountToSend: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AMOUNT })),
    /** Must be in the future (platform clock); without it the invitation never expires. */
    expiresAt: Type.Optional(DateTime()),
  },
  { additionalProperties: false },
);
export type CreateInvitationBody = Static<typeof CreateInvitationBody>;

export const ClaimInvitationBody = Type.Object(
  { inviteeUma: Type.String({ minLength: 1, maxLength: 255 }) },
  { additionalProperties: false },
);
export type ClaimInvitationBody = Static<typeof ClaimInvitationBody>;

export const InvitationParams = Type.Object({ invitationCode: Type.String() });
