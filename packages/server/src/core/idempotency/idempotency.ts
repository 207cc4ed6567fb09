import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Clock } from "../clock.js";
import type { Db, Tx } from "../db/db.js";
import { withTransactionPreamble } from "../db/scope.js";
import { ApiError, invalidField } from "../errors/api-error.js";
import { canonicalJson } from "../hash.js";
import { keyDigest, keyedFingerprint, open, seal } from "./sealing.js";
import * as store from "./store.js";

const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still IN_PROGRESS with no effect committed after this long (service time) was abandoned by a
 * killed process: the next request with the same key and fingerprint takes it over. The app sets no
 * request timeout, so a live request may outlast it; it then loses the claim, and its next transaction
 * rolls back (see `holdClaim`), so a key never has two effects either way.
 */
export const CLAIM_LEASE_MS = 30_000;
const keyPattern = /^[\x20-\x7e]{1,255}$/;
// 400, 401 and 403 answers are never stored (conventions §1.8): the client may fix the request and retry.
// Nor is a 429: it says "later", and a retry after Retry-After with the same key must be able to succeed.
const unstored = new Set([400, 401, 403, 429]);

declare module "fastify" {
  interface FastifyRequest {
    idempotencyClaim: HeldClaim | null;
  }
  interface FastifyContextConfig {
    /** Signed-retry endpoints have their own replay rules and take no Idempotency-Key. */
    idempotency?: false;
  }
}

export interface HeldClaim extends store.Claim {
  /** The client's key (seals the stored response). */
  clientKey: string;
  /** False once the response is being stored: later transactions in the context are not the request's. */
  active: boolean;
}

/**
 * The preamble of every top-level transaction the request opens while it holds its claim: marks the
 * claim's effect in the same commit, or rolls the transaction back when a retry has taken the claim over.
 */
export function holdClaim(claim: HeldClaim, clock: Clock): (tx: Tx) => Promise<void> {
  return async (tx) => {
    if (!claim.active) return;
    if (!(await store.markEffect(tx, claim, clock.now()))) {
      throw new ApiError("CONFLICT", {
        reason: "A retry with this Idempotency-Key took over this request; it was not applied.",
      });
    }
  };
}

function fingerprint(key: string, request: FastifyRequest): string {
  return keyedFingerprint(key, `${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`);
}

async function replay(reply: FastifyReply, key: string, saved: store.IdempotencyRow): Promise<FastifyReply> {
  const body = saved.response_body ? open(key, saved.response_body) : "";
  if (body === null) throw new Error("a stored idempotent response does not open under its own key");
  return reply
    .code(saved.response_status ?? 500)
    .header("idempotent-replayed", "true")
    .header("content-type", saved.response_content_type ?? "application/json; charset=utf-8")
    .send(body);
}

/**
 * Idempotency-Key on POST (conventions §1.8): the first response to a key is stored and replayed to
 * the same request; a different request with the key, or one while the first runs, is 409 CONFLICT.
 * Runs after authentication, permission and validation, so their rejections are never stored.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, clock: Clock): void {
  app.decorateRequest("idempotencyClaim", null);

  app.addHook("preHandler", async (request, reply) => {
    const header = request.headers["idempotency-key"];
    if (
      request.method !== "POST" ||
      header === undefined ||
      request.routeOptions.config.idempotency === false
    )
      return;
    const key = Array.isArray(header) ? header.join(",") : header;
    if (!keyPattern.test(key)) {
      throw invalidField("Idempotency-Key", "must be 1 to 255 printable ASCII characters", {
        minLength: 1,
        maxLength: 255,
      });
    }
    const now = new Date(clock.now().getTime() + request.caller.clockOffsetMs);
    const print = fingerprint(key, request);
    const claim: HeldClaim = {
      platformId: request.caller.platformId,
      key: keyDigest(key),
      token: randomUUID(),
      clientKey: key,
      active: true,
    };
    const serviceNow = clock.now();
    const staleBefore = new Date(serviceNow.getTime() - CLAIM_LEASE_MS);
    const claimed = await store.claimKey(db, {
      platformId: claim.platformId,
      key: claim.key,
      token: claim.token,
      fingerprint: print,
      now,
      expiresAt: new Date(now.getTime() + KEY_TTL_MS),
      claimedAt: serviceNow,
      staleBefore,
    });
    if (claimed) {
      request.idempotencyClaim = claim;
      return;
    }
    const saved = await store.findKey(db, request.caller.platformId, keyDigest(key));
    if (!saved)
      throw new ApiError("CONFLICT", {
        reason: "The Idempotency-Key is being claimed by a concurrent request.",
      });
    if (saved.fingerprint !== print) {
      throw new ApiError("CONFLICT", {
        reason: "This Idempotency-Key was used with a different request (method, path or body).",
      });
    }
    if (
      saved.state === "IN_PROGRESS" &&
      saved.effect_at &&
      saved.claimed_at &&
      saved.claimed_at <= staleBefore
    ) {
      throw new ApiError("CONFLICT", {
        reason:
          "A request with this Idempotency-Key completed, but its response was lost; read the resource to learn the outcome.",
      });
    }
    if (saved.state === "IN_PROGRESS") {
      throw new ApiError("CONFLICT", {
        reason: "A request with this Idempotency-Key is still running; retry later.",
      });
    }
    return replay(reply, key, saved);
  });

  // The rest of the request (later hooks, the handler) runs with the claim in context; see holdClaim.
  app.addHook("preHandler", (request, _reply, done) => {
    const claim = request.idempotencyClaim;
    if (claim === null) done();
    else withTransactionPreamble(holdClaim(claim, clock), done);
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (claim === null) return payload;
    request.idempotencyClaim = null;
    claim.active = false;
    if (unstored.has(reply.statusCode)) {
      await store.releaseKey(db, claim);
    } else {
      const body =
        typeof payload === "string"
          ? payload
          : payload === null || payload === undefined
            ? ""
            : String(payload);
      await store.completeKey(db, claim, {
        status: reply.statusCode,
        body: seal(claim.clientKey, body),
        contentType: String(reply.getHeader("content-type") ?? "application/json; charset=utf-8"),
      });
    }
    return payload;
  });
}
