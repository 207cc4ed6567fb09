import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";

/** The hosted page's path under the version prefix; the link's single token is its last segment. */
export const KYC_PAGE_PATH = "/kyc/:token";

/** The hosted API's KycLinkCreateRequest: the body is optional, and so is its one field. */
export const CreateKycLinkBody = Type.Object(
  {
    /** Where the hosted page's "Continue" link sends the person once they have submitted. */
    redirectUri: Type.Optional(Type.String({ format: "uri", maxLength: 2048 })),
  },
  { additionalProperties: false },
);
export type CreateKycLinkBody = Static<typeof CreateKycLinkBody>;

/** The hosted API's KycLinkResponse, `provider` being this service's sandbox page (no `token`: the URL holds it). */
export const KycLink = Type.Object({
  kycUrl: Type.String({ format: "uri" }),
  expiresAt: DateTime(),
  provider: StringEnum(["SANDBOX"]),
});
export type KycLink = Static<typeof KycLink>;

export const KycPageParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
