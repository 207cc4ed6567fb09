import { randomBytes } from "node:crypto";
import type { Db, Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { sha256Hex } from "../core/hash.js";
import type { Caller } from "../core/http/context.js";
import type { DeviceCode, DeviceCodeStatus, RedeemedDeviceCode } from "./schemas.js";
import * as store from "./store.js";

/** A device code lives 10 minutes (platform clock) and is redeemed once. */
export const DEVICE_CODE_LIFETIME_MS = 10 * 60 * 1000;

// RFC 8628 §6.1 style: consonants only (no vowels, so no words; no 0/O, 1/I confusion), 12 characters
// = 51.9 bits, grouped XXXX-XXXX-XXXX. Too many to guess within a code's 10 minutes.
const ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const CODE_LENGTH = 12;

function randomCode(): string {
  let code = "";
  while (code.length < CODE_LENGTH) {
    for (const byte of randomBytes(16)) {
      // 240 = 12 × 20: rejecting the rest keeps every letter equally likely.
      if (byte < 240 && code.length < CODE_LENGTH) code += ALPHABET[byte % ALPHABET.length];
    }
  }
  return code.match(/.{4}/g)?.join("-") ?? code;
}

/** Codes are compared without case, spaces or hyphens; only this hash is stored. */
const codeHash = (code: string) => sha256Hex(`agent-device-code:${code.toUpperCase().replace(/[\s-]/g, "")}`);
const tokenHash = (token: string) => sha256Hex(`agent-access-token:${token}`);

/** Issues a device code for an agent inside the caller's transaction; the code itself is returned once. */
export async function issueDeviceCode(tx: Tx, agentId: string, now: Date): Promise<DeviceCode> {
  const code = randomCode();
  const expiresAt = new Date(now.getTime() + DEVICE_CODE_LIFETIME_MS);
  await store.insertDeviceCode(tx, { codeHash: codeHash(code), agentId, expiresAt, now });
  return { code, agentId, expiresAt: expiresAt.toISOString(), redeemed: false };
}

/**
 * `POST /agents/device-codes/{code}/redeem` (no credentials: the agent app holds none). Unknown and
 * expired codes (deleting the agent expires them) are `404 NOT_FOUND`; a redeemed one is `409 CONFLICT`.
 * The new access token replaces the agent's previous one. Answers the hosted AgentDeviceCodeRedeemResponse.
 */
export async function redeemDeviceCode(deps: Deps, rawCode: string): Promise<RedeemedDeviceCode> {
  const hash = codeHash(rawCode.slice(0, 64));
  return deps.db.transaction(async (tx) => {
    const row = await store.lockDeviceCode(tx, hash);
    if (!row) throw new ApiError("NOT_FOUND", { reason: "No such device code." });
    if (row.redeemed_at !== null)
      throw new ApiError("CONFLICT", {
        reason: "This device code was already redeemed; ask the platform for a new one.",
      });
    const now = new Date(deps.clock.now().getTime() + row.clock_offset_ms);
    if (now >= row.expires_at)
      throw new ApiError("NOT_FOUND", {
        reason: `This device code expired at ${row.expires_at.toISOString()}; ask the platform for a new one.`,
      });
    const accessToken = `agt_${randomBytes(32).toString("base64url")}`;
    await store.markRedeemed(tx, hash, now);
    await store.updateAgent(tx, row.agent_id, {
      token_hash: tokenHash(accessToken),
      token_issued_at: now,
      now,
    });
    return { agentId: row.agent_id, agentName: row.agent_name, accessToken, policy: row.policy };
  });
}

/** AgentAuth: the caller for an ACTIVE agent's current access token, bound to its live customer; else null. */
export async function authenticateAgent(db: Db, accessToken: string): Promise<Caller | null> {
  const row = await store.findAgentByTokenHash(db, tokenHash(accessToken));
  // A deleted customer's agents stop working with it (docs/decisions/agents.md).
  if (row?.status !== "ACTIVE" || row.customer_deleted) return null;
  return {
    platformId: row.platform_id,
    tokenId: row.id,
    permissions: [],
    environment: row.environment,
    clockOffsetMs: row.clock_offset_ms,
    agent: { agentId: row.id, customerId: row.customer_id, allowedOperations: row.policy.permissions },
  };
}

/**
 * `GET /agents/device-codes/{code}/status` (BasicAuth): whether the platform's own agent has redeemed the
 * code. Another platform's, unknown and expired unredeemed codes are `404 NOT_FOUND`.
 */
export async function deviceCodeStatus(
  deps: Deps,
  caller: Caller,
  rawCode: string,
): Promise<DeviceCodeStatus> {
  const row = await store.findDeviceCode(deps.db, codeHash(rawCode.slice(0, 64)));
  if (!row || row.platform_id !== caller.platformId)
    throw new ApiError("NOT_FOUND", { reason: "No such device code." });
  if (row.redeemed_at === null && nowFor(deps, caller) >= row.expires_at)
    throw new ApiError("NOT_FOUND", {
      reason: `This device code expired at ${row.expires_at.toISOString()} without being redeemed.`,
    });
  return { code: rawCode, redeemed: row.redeemed_at !== null };
}
