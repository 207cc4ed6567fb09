import type { Executor, Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { applyCustomerUpdate, type CustomerInput } from "../customers/customers.js";
import { type CustomerRow, findCustomer } from "../customers/store.js";
import { isActiveSessionKey } from "./export.js";
import { isFirstCall, type SignedHttp, signedCall } from "./signed-calls.js";
import type { SignedRequestRow } from "./signed-requests.js";
import { registerPerformer, type SignedResponse, signedRetry } from "./signed-retry.js";

// `PATCH /customers/{customerId}` changing `email` or `phoneNumber` while OTP credentials are tied to them
// (conventions §2.1, §5.2): the change becomes a signed retry (`UPDATE_CUSTOMER`), and the tied
// credentials' nicknames follow the customer in the same transaction.

type OtpType = "EMAIL_OTP" | "SMS_OTP";

/** A tied credential as recorded at the first call: the set the signer approved. */
interface TiedCredential {
  id: string;
  type: OtpType;
  accountId: string;
  nickname: string;
}

const contactOf = { EMAIL_OTP: "email", SMS_OTP: "phoneNumber" } as const;
const codes = {
  EMAIL_OTP: { taken: "EMAIL_OTP_EMAIL_ALREADY_EXISTS", changed: "EMAIL_OTP_CREDENTIAL_SET_CHANGED" },
  SMS_OTP: { taken: "SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS", changed: "SMS_OTP_CREDENTIAL_SET_CHANGED" },
} as const;

/** The OTP types whose contact this PATCH changes (a value equal to the one on file is no change). */
function changedTypes(customer: CustomerRow, input: CustomerInput): OtpType[] {
  return (["EMAIL_OTP", "SMS_OTP"] as const).filter((type) => {
    const field = contactOf[type];
    return input[field] !== undefined && input[field] !== customer.profile[field];
  });
}

async function embeddedWallets(db: Executor, customerId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    "SELECT id FROM internal_accounts WHERE customer_id = $1 AND type = 'EMBEDDED_WALLET' ORDER BY created_at, id",
    [customerId],
  );
  return rows.map((row) => row.id);
}

/**
 * The live credentials of these types on the customer's embedded wallets: every EMAIL_OTP (SMS_OTP)
 * credential of a customer's wallet is tied to the customer's e-mail (phone) on file (interface,
 * Authentication rule 3), so all of them follow a change. Ordered, so two reads compare as lists.
 */
async function tiedCredentials(tx: Tx, wallets: string[], types: OtpType[]): Promise<TiedCredential[]> {
  if (types.length === 0 || wallets.length === 0) return [];
  const rows = await tx.query<{ id: string; type: OtpType; account_id: string; nickname: string }>(
    `SELECT id, type, account_id, nickname FROM auth_methods
     WHERE account_id = ANY($1) AND type = ANY($2) AND revoked_at IS NULL ORDER BY id FOR UPDATE`,
    [wallets, types],
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    accountId: row.account_id,
    nickname: row.nickname,
  }));
}

/** `409 …_ALREADY_EXISTS` when another customer's wallet already has the new contact on such a credential. */
async function checkContactFree(
  tx: Tx,
  platformId: string,
  wallets: string[],
  tied: TiedCredential[],
  input: CustomerInput,
): Promise<void> {
  for (const type of new Set(tied.map((credential) => credential.type))) {
    const contact = String(input[contactOf[type]]);
    const [taken] = await tx.query(
      `SELECT 1 FROM auth_methods WHERE platform_id = $1 AND type = $2 AND revoked_at IS NULL
         AND NOT (account_id = ANY($3)) AND lower(nickname) = lower($4) LIMIT 1`,
      [platformId, type, wallets, contact],
    );
    if (taken)
      throw new ApiError(codes[type].taken, {
        reason: `${contact} is already tied to another customer's embedded wallet ${type} credential.`,
      });
  }
}

const sameSet = (a: TiedCredential[], b: TiedCredential[]) =>
  a.length === b.length &&
  a.every((x, i) => x.id === b[i]?.id && x.nickname === b[i]?.nickname && x.accountId === b[i]?.accountId);

/**
 * The signed-retry path of `PATCH /customers/{customerId}`, or undefined when the PATCH is a plain one:
 * a first call where neither `email` nor `phoneNumber` changes, or no credential is tied to it. The
 * operation is bound to the first wallet holding a tied credential; a session of any of the customer's
 * embedded wallets may sign it. Never PROCESSING: the interface does not list this endpoint for it.
 */
export async function signedCustomerUpdate(
  tx: Tx,
  deps: Deps,
  input: { caller: Caller; customer: CustomerRow; body: CustomerInput; http: SignedHttp; now: Date },
): Promise<SignedResponse | undefined> {
  const { caller, customer, body, http, now } = input;
  const types = changedTypes(customer, body);
  const wallets = await embeddedWallets(tx, customer.id);
  const tied = await tiedCredentials(tx, wallets, types);
  if (isFirstCall(http)) {
    if (tied.length === 0) return undefined;
    await checkContactFree(tx, caller.platformId, wallets, tied, body);
  }
  // A request with signature headers is always a signed retry: the identical re-send of a completed one
  // gets its stored answer (never a second update), and one whose tied credentials were all revoked since
  // its 202 is checked (401s first) and then answered 409 …_CREDENTIAL_SET_CHANGED by the performer.
  const boundAccount = wallets.find((id) => tied.some((credential) => credential.accountId === id));
  return signedRetry(
    tx,
    deps,
    signedCall(caller, http, {
      accountId: boundAccount ?? wallets[0] ?? "",
      action: "UPDATE_CUSTOMER",
      body,
      now,
      context: { customerId: customer.id, tied },
      allowedSigner: (key) => isActiveSessionKey(tx, wallets, key, now),
    }),
  );
}

/**
 * The signed change: the tied set must be the one the signer approved (`409 …_CREDENTIAL_SET_CHANGED`
 * otherwise), the new contact still free, then the customer and the credentials' nicknames change together.
 */
async function performCustomerUpdate(
  tx: Tx,
  _deps: Deps,
  request: SignedRequestRow,
  _signer: string,
  now: Date,
): Promise<SignedResponse> {
  const body = request.context.body as CustomerInput;
  const approved = request.context.tied as TiedCredential[];
  const customer = await findCustomer(tx, request.platform_id, String(request.context.customerId), true);
  if (!customer) throw new Error(`signed request ${request.id} names a missing customer`);
  if (customer.is_deleted)
    throw new ApiError("CONFLICT", { reason: `Customer ${customer.id} is deleted and cannot be changed.` });
  const wallets = await embeddedWallets(tx, customer.id);
  // A credential tied since the challenge (a type that had none then) is a change of the set too.
  const types = [
    ...new Set([...approved.map((credential) => credential.type), ...changedTypes(customer, body)]),
  ];
  const current = await tiedCredentials(tx, wallets, types);
  for (const type of types) {
    if (
      !sameSet(
        approved.filter((c) => c.type === type),
        current.filter((c) => c.type === type),
      )
    )
      throw new ApiError(codes[type].changed, {
        reason: `The ${type} credentials tied to customer ${customer.id} changed after the challenge; start again.`,
      });
  }
  await checkContactFree(tx, request.platform_id, wallets, current, body);
  const updated = await applyCustomerUpdate(tx, customer, body, now);
  for (const credential of current) {
    await tx.query("UPDATE auth_methods SET nickname = $2, updated_at = $3 WHERE id = $1", [
      credential.id,
      String(body[contactOf[credential.type]]),
      now,
    ]);
  }
  return { status: 200, body: updated };
}

registerPerformer("UPDATE_CUSTOMER", performCustomerUpdate);
