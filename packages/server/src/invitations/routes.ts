import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { cancelInvitation, claimInvitation, createInvitation, getInvitation } from "./invitations.js";
import { ClaimInvitationBody, CreateInvitationBody, Invitation, InvitationParams } from "./schemas.js";

export const invitationRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Invitations"];

  app.post(
    "/invitations",
    {
      schema: {
        tags,
        description:
          "A customer invites someone by UMA; `400 INVITATIONS_NOT_CONFIGURED` until `invitationBaseUrl` is set.",
        body: CreateInvitationBody,
        response: { 201: Invitation, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createInvitation(deps, request.caller, request.body)),
  );

  app.get(
    "/invitations/:invitationCode",
    { schema: { tags, params: InvitationParams, response: { 200: Invitation, ...errorResponses } } },
    async (request) => getInvitation(deps, request.caller, request.params.invitationCode),
  );

  app.post(
    "/invitations/:invitationCode/claim",
    {
      schema: {
        tags,
        description: "The invitee claims a PENDING invitation; fires `INVITATION.CLAIMED`.",
        params: InvitationParams,
        body: ClaimInvitationBody,
        response: { 200: Invitation, ...errorResponses },
      },
    },
    async (request) => claimInvitation(deps, request.caller, request.params.invitationCode, request.body),
  );

  app.post(
    "/invitations/:invitationCode/cancel",
    {
      schema: {
        tags,
        description: "Cancels a PENDING invitation (no body).",
        params: InvitationParams,
        response: { 200: Invitation, ...errorResponses },
      },
    },
    async (request) => cancelInvitation(deps, request.caller, request.params.invitationCode),
  );
};
