/** Invitation wire types, mirroring packages/server/src/invitations/schemas.ts. Re-exported from index.ts. */
import type { CurrencyAmount } from "./common.js";

export type InvitationStatus = "PENDING" | "CLAIMED" | "CANCELLED" | "EXPIRED";

/** An invitation; `code` is its identifier and `url` the page the invitee opens. */
export interface Invitation {
  code: string;
  url: string;
  inviterUma: string;
  inviteeUma?: string;
  amountToSend?: CurrencyAmount;
  status: InvitationStatus;
  expiresAt?: string;
  claimedAt?: string;
  cancelledAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface CreateInvitationBody {
  /** The UMA address of one of the platform's customers. */
  inviterUma: string;
  /** USD cents the inviter means to send once the invitation is claimed. */
  amountToSend?: number;
  /** In the future (platform clock); without it the invitation never expires. */
  expiresAt?: string;
}

export interface ClaimInvitationBody {
  inviteeUma: string;
}
