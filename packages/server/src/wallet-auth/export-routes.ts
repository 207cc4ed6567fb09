import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { errorResponses } from "../core/http/schemas.js";
import { exportWallet } from "./export.js";
import { SignedRetryChallenge, WalletOperationProcessing } from "./schemas.js";
import { signedHttp } from "./signed-calls.js";

/** The path of an embedded wallet (an internal account); the same shape as customers/schemas.ts AccountParams. */
const AccountParams = Type.Object({ accountId: Type.String() });

/** `POST /internal-accounts/{id}/export` body: an uncompressed P-256 key only (conventions §5.2). */
export const ExportWalletBody = Type.Object(
  { clientPublicKey: Type.String({ pattern: "^04[0-9a-fA-F]{128}$" }) },
  { additionalProperties: false },
);

/** The terminal `200`: the wallet's mnemonic sealed to `clientPublicKey` (conventions §5.4). */
export const ExportedWallet = Type.Object({
  id: Type.String(),
  encryptedWalletCredentials: Type.String(),
});

export const exportRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    "/internal-accounts/:accountId/export",
    {
      // Signed retries have their own replay rules (conventions §1.8).
      config: { idempotency: false },
      schema: {
        tags: ["Embedded wallet authentication"],
        params: AccountParams,
        body: ExportWalletBody,
        response: {
          200: Type.Union([ExportedWallet, WalletOperationProcessing]),
          202: SignedRetryChallenge,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const result = await exportWallet(
        deps,
        request.caller,
        request.params.accountId,
        request.body,
        signedHttp(request),
      );
      // The status picks the response schema (202 challenge, 200 result or PROCESSING, or an error body).
      // The encrypted wallet credentials are never stored, by the service or by a cache on the way.
      return reply
        .code(result.status)
        .header("cache-control", "no-store")
        .send(result.body as never);
    },
  );
};
