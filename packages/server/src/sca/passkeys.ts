import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId, parseId } from "../core/ids.js";
import { passkeyFromAttestation } from "../wallet-auth/passkey.js";
import {
  findLivePasskey,
  insertPasskey,
  lockLivePasskey,
  markPasskeyDeleted,
  type PasskeyRow,
} from "./passkey-store.js";
import { findScaCustomerOrThrow } from "./regions.js";
import type { EnrollPasskeyBody, ScaPasskey } from "./schemas.js";
import { requireLiveSession } from "./sessions.js";

const ONE_PER_CUSTOMER = "sca_passkeys_one_per_customer_key";

function toScaPasskey(row: PasskeyRow): ScaPasskey {
  return {
    id: row.id,
    customerId: row.customer_id,
    nickname: row.nickname,
    credentialId: row.credential_id,
    createdAt: row.created_at.toISOString(),
  };
}

const alreadyEnrolled = (customerId: string) =>
  new ApiError("PASSKEY_ALREADY_ENROLLED", {
    reason: `Customer ${customerId} already has an enrolled SCA passkey; delete it before enrolling another.`,
  });

/**
 * `POST /sca/passkeys`: enrolls the customer's one SCA passkey under a live SCA session. The attestation
 * is verified like a wallet passkey's (conventions §5.6); a second live one is `409 PASSKEY_ALREADY_ENROLLED`.
 */
export async function enrollPasskey(
  deps: Deps,
  caller: Caller,
  body: EnrollPasskeyBody,
): Promise<ScaPasskey> {
  const passkey = await passkeyFromAttestation(deps, caller, body);
  try {
    return await deps.db.transaction(async (tx) => {
      const customer = await findScaCustomerOrThrow(tx, caller, body.customerId);
      const now = nowFor(deps, caller);
      if (await findLivePasskey(tx, customer.id)) throw alreadyEnrolled(customer.id);
      await requireLiveSession(tx, customer.id, now);
      const row: PasskeyRow = {
        id: newId("AuthMethod"),
        platform_id: caller.platformId,
        customer_id: customer.id,
        nickname: body.nickname.trim(),
        credential_id: passkey.credentialId,
        public_key: passkey.publicKey,
        counter: passkey.counter,
        transports: passkey.transports,
        deleted_at: null,
        created_at: now,
      };
      await insertPasskey(tx, row);
      return toScaPasskey(row);
    });
  } catch (error) {
    // Two concurrent enrollments: the partial unique index lets one in.
    if (isUniqueViolation(error, ONE_PER_CUSTOMER)) throw alreadyEnrolled(body.customerId);
    throw error;
  }
}

/** `DELETE /sca/passkeys/{passkeyId}` under a live SCA session; unknown or deleted → `404 AUTH_METHOD_NOT_FOUND`. */
export async function deletePasskey(deps: Deps, caller: Caller, rawId: string): Promise<void> {
  const id = parseId("AuthMethod", rawId);
  await deps.db.transaction(async (tx) => {
    const row = id ? await lockLivePasskey(tx, caller.platformId, id) : undefined;
    if (!row) throw new ApiError("AUTH_METHOD_NOT_FOUND", { reason: `No SCA passkey ${rawId}.` });
    const now = nowFor(deps, caller);
    await requireLiveSession(tx, row.customer_id, now);
    await markPasskeyDeleted(tx, row.id, now);
  });
}
