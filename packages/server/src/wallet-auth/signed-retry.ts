import type { Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { canonicalJson, sha256Hex } from "../core/hash.js";
import { newId, parseId } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import * as store from "./signed-requests.js";
import { parseStamp, type Stamp, stampVerifies } from "./stamp.js";

/** A signed-retry challenge stays answerable this long (conventions §5.1). */
export const SIGNED_RETRY_TTL_MS = 5 * 60 * 1000;
export const RECONCILE_JOB = "wallet-auth.reconcile";

/** What a signed-retry endpoint answers: a status and a JSON body (null: no body, e.g. 204). */
export interface SignedResponse {
  status: number;
  body: unknown;
}

/** Runs the operation once its signature is accepted; also run by the reconciler from the stored row. */
export type Performer = (
  tx: Tx,
  deps: Deps,
  request: store.SignedRequestRow,
  signer: string,
  now: Date,
) => Promise<SignedResponse>;

/** The actions this mechanism runs: a `PASSKEY_AUTH` row is a passkey challenge, completed by passkey.ts. */
export type PerformedAction = Exclude<store.SignedAction, "PASSKEY_AUTH">;

/**
 * The operation behind each signed action: one explicit table, built at the composition root
 * (src/signed-retry-performers.ts), since its performers belong to areas above wallet-auth too
 * (customers' contact change and account update).
 */
export type SignedRetryPerformers = Readonly<Record<PerformedAction, Performer>>;

// Deps carries the table to the requests and to the reconciler job (reconcile-jobs.ts). It is declared
// here, by merging into Deps, so that core names no area (like core/http/context.ts does for Fastify).
declare module "../core/deps.js" {
  interface Deps {
    /** The signed-retry performers (src/signed-retry-performers.ts); main.ts and the test harness set it. */
    signedRetryPerformers?: SignedRetryPerformers;
  }
}

function performerOf(deps: Deps, action: store.SignedAction): Performer {
  const performer = action === "PASSKEY_AUTH" ? undefined : deps.signedRetryPerformers?.[action];
  if (!performer) throw new Error(`no performer for ${action} in Deps.signedRetryPerformers`);
  return performer;
}

export interface SignedCall {
  platformId: string;
  accountId: string;
  action: store.SignedAction;
  /** The credential type named in the 202 body, where the endpoint has one (conventions §5.1). */
  type?: string;
  method: string;
  /** The request path without the query string, as received. */
  path: string;
  body: unknown;
  signatureHeader: string | undefined;
  requestIdHeader: string | undefined;
  now: Date;
  /** Operation inputs fixed at the first call; `payloadExtra` also goes into payloadToSign. */
  context?: Record<string, unknown>;
  payloadExtra?: Record<string, unknown>;
  /**
   * Whether a stamp's key may sign this operation (checked after the signature verifies); the stored
   * request is passed for signers fixed at the first call (the OTP verify's client key).
   */
  allowedSigner: (publicKey: string, request: store.SignedRequestRow) => Promise<boolean>;
  /** Sandbox: answer PROCESSING first and settle this many ms later (0: settle at once). */
  processingDelayMs?: number;
}

const bodyDigest = (body: unknown) =>
  sha256Hex(body === undefined || body === null ? "" : canonicalJson(body));
const header = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);

function challengeBody(call: SignedCall, row: store.SignedRequestRow) {
  return {
    ...(call.type ? { type: call.type } : {}),
    payloadToSign: row.payload_to_sign,
    requestId: row.id,
    expiresAt: row.expires_at.toISOString(),
  };
}

const processing = {
  status: 200,
  body: {
    status: "PROCESSING",
    message: "The operation is still settling; re-send the identical signed request.",
  },
};

/**
 * The one signed-retry mechanism (conventions §5.3). First call (no headers): stores the operation bound
 * to method, path, account and canonical body, and answers `202 {type?, payloadToSign, requestId,
 * expiresAt}`. Signed retry: checks the headers in the documented order, then runs the operation once;
 * with a sandbox processing delay it answers PROCESSING until settled, and the identical signed request
 * (or the reconciler job) completes the same operation, never a second one.
 */
export async function signedRetry(tx: Tx, deps: Deps, call: SignedCall): Promise<SignedResponse> {
  const signature = header(call.signatureHeader);
  const requestId = header(call.requestIdHeader);
  if (signature === undefined && requestId === undefined)
    return { status: 202, body: challengeBody(call, await issue(tx, call)) };
  if (requestId === undefined)
    throw new ApiError("REQUEST_ID_MISSING", { reason: "The signed retry needs the Request-Id header." });
  if (signature === undefined)
    throw new ApiError("WALLET_SIGNATURE_MISSING", {
      reason: "The signed retry needs the Service-Wallet-Signature header.",
    });
  const stamp = parseStamp(signature);
  const id = parseId("Request", requestId);
  const row = id ? await store.findSignedRequest(tx, call.platformId, id, true) : undefined;
  if (!row) throw new ApiError("REQUEST_NOT_FOUND", { reason: `No signed request ${requestId}.` });
  if (
    row.method !== call.method ||
    row.path !== call.path ||
    row.account_id !== call.accountId ||
    row.body_sha256 !== bodyDigest(call.body)
  )
    throw new ApiError("WALLET_SIGNATURE_BODY_MISMATCH", {
      reason: "The method, path, account or body differs from the request that was challenged.",
    });
  const stampSha256 = sha256Hex(signature);
  const resumed = row.stamp_sha256 === stampSha256;
  // A requestId is single use (interface, Authentication rule 6): once a terminal answer was given, any
  // further use is refused. Only the identical request that was answered PROCESSING may come back, once,
  // for the result the reconciler reached (a wallet export's result is never stored: it is made again).
  if (row.state === "ANSWERED" || (row.state === "COMPLETED" && !resumed))
    throw invalid("this requestId was already used");
  if (row.state === "COMPLETED") {
    const result =
      row.result_body !== null
        ? {
            status: row.result_status ?? 200,
            body: row.result_body === "" ? null : JSON.parse(row.result_body),
          }
        : await performerOf(deps, row.action)(tx, deps, row, stamp.publicKey, call.now);
    await store.markAnswered(tx, row.id);
    return result;
  }
  if (row.state === "ISSUED" && call.now.getTime() > row.expires_at.getTime())
    throw invalid("the challenge expired; start a new operation");
  await checkSigner(stamp, row, call);
  if (row.state === "PROCESSING" && !resumed)
    throw invalid("this requestId is already being processed for another signature");
  const delay = call.processingDelayMs ?? 0;
  if (row.state === "ISSUED" && delay > 0) {
    const readyAt = new Date(call.now.getTime() + delay);
    await store.markProcessing(tx, row.id, stampSha256, readyAt);
    await scheduleJob(tx, {
      platformId: row.platform_id,
      kind: RECONCILE_JOB,
      payload: { requestId: row.id, signer: stamp.publicKey },
      runAt: readyAt,
      now: call.now,
    });
    return processing;
  }
  if (row.state === "PROCESSING" && row.ready_at && call.now.getTime() < row.ready_at.getTime())
    return processing;
  return complete(tx, deps, row, { signer: stamp.publicKey, stampSha256, now: call.now, answered: true });
}

const invalid = (why: string) =>
  new ApiError("WALLET_SIGNATURE_INVALID", { reason: `The signed retry is refused: ${why}.` });

async function checkSigner(stamp: Stamp, row: store.SignedRequestRow, call: SignedCall): Promise<void> {
  if (!stampVerifies(stamp, row.payload_to_sign))
    throw invalid("the signature does not verify over payloadToSign");
  if (!(await call.allowedSigner(stamp.publicKey, row)))
    throw invalid("the signing key is not allowed to authorize this operation");
}

async function issue(tx: Tx, call: SignedCall): Promise<store.SignedRequestRow> {
  const id = newId("Request");
  const payload = JSON.stringify({
    action: call.action,
    accountId: call.accountId,
    requestId: id,
    method: call.method,
    path: call.path,
    bodySha256: bodyDigest(call.body),
    issuedAtMs: call.now.getTime(),
    ...call.payloadExtra,
  });
  const row: store.SignedRequestRow = {
    id,
    platform_id: call.platformId,
    account_id: call.accountId,
    action: call.action,
    method: call.method,
    path: call.path,
    body_sha256: bodyDigest(call.body),
    payload_to_sign: payload,
    context: { ...call.context, body: call.body ?? null },
    state: "ISSUED",
    stamp_sha256: null,
    ready_at: null,
    result_status: null,
    result_body: null,
    expires_at: new Date(call.now.getTime() + SIGNED_RETRY_TTL_MS),
    completed_at: null,
    created_at: call.now,
  };
  await store.insertSignedRequest(tx, row);
  return row;
}

/**
 * Runs the action's operation and records its end. `answered`: the client receives this result now, so
 * the requestId is spent; otherwise (the reconciler) the result waits for the identical request that was
 * answered PROCESSING, and only a result that may be kept is stored (never a wallet export's).
 */
export async function complete(
  tx: Tx,
  deps: Deps,
  row: store.SignedRequestRow,
  end: { signer: string; stampSha256: string | null; now: Date; answered: boolean },
): Promise<SignedResponse> {
  const result = await performerOf(deps, row.action)(tx, deps, row, end.signer, end.now);
  const keep = !end.answered && row.action !== "EXPORT_WALLET";
  await store.markCompleted(
    tx,
    row.id,
    {
      state: end.answered ? "ANSWERED" : "COMPLETED",
      status: result.status,
      body: keep ? (result.body === null ? "" : JSON.stringify(result.body)) : null,
      stampSha256: end.stampSha256,
    },
    end.now,
  );
  return result;
}
