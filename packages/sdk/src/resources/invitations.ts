import { type ApiResult, path, type RequestOptions, type RequestSender } from "../core/request.js";
import type { ClaimInvitationBody, CreateInvitationBody, Invitation } from "../types/index.js";

/**
 * `/invitations`: a customer invites someone by UMA. `BadRequestError` `INVITATIONS_NOT_CONFIGURED` until the
 * platform's `invitationBaseUrl` is set; an unknown code is `NotFoundError`; claiming one already claimed or
 * cancelled is `BadRequestError` `INVITATION_ALREADY_CLAIMED` / `INVITATION_CANCELLED`.
 */
export class InvitationsResource {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /** `POST /invitations` → `201` Invitation in `PENDING`. */
  async create(body: CreateInvitationBody, options?: RequestOptions): Promise<ApiResult<Invitation>> {
    return this.#sender.send("POST", "/invitations", { body, options });
  }

  /** `GET /invitations/{invitationCode}`. */
  async get(invitationCode: string, options?: RequestOptions): Promise<ApiResult<Invitation>> {
    return this.#sender.send("GET", path`/invitations/${invitationCode}`, { options });
  }

  /** `POST /invitations/{invitationCode}/claim`: the invitee claims it (fires `INVITATION.CLAIMED`). */
  async claim(
    invitationCode: string,
    body: ClaimInvitationBody,
    options?: RequestOptions,
  ): Promise<ApiResult<Invitation>> {
    return this.#sender.send("POST", path`/invitations/${invitationCode}/claim`, { body, options });
  }

  /** `POST /invitations/{invitationCode}/cancel`: cancels a `PENDING` invitation. */
  async cancel(invitationCode: string, options?: RequestOptions): Promise<ApiResult<Invitation>> {
    return this.#sender.send("POST", path`/invitations/${invitationCode}/cancel`, { options });
  }
}
