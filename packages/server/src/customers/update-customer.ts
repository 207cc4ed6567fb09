import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import {
  contactTiedElsewhere,
  lockOtpCredentials,
  type OtpCredential,
  type OtpType,
  setOtpContact,
} from "../wallet-auth/otp-store.js";
import { isActiveSessionKey } from "../wallet-auth/sessions.js";
import { isFirstCall, type SignedHttp, signedCall } from "../wallet-auth/signed-calls.js";
import type { SignedRequestRow } from "../wallet-auth/signed-requests.js";
import { type SignedResponse, signedRetry } from "../wallet-auth/signed-retry.js";
import { listAccountsOfCustomer } from "./accounts-store.js";
import { consentsOf } from "./agreements.js";
import {
  applyCustomerUpdate,
  type CustomerInput,
  checkTypeFields,
  checkUmaAddress,
  findActiveCustomerOrThrow,
  mapConflicts,
} from "./customers.js";
import { type CustomerRow, findCustomer } from "./store.js";

// `PATCH /customers/{customerId}`, the contact change included, as one operation. Changing `email` or
// `phoneNumber` while OTP credentials are tied to them (conventions §2.1, §5.2) is a signed retry
// (`UPDATE_CUSTOMER`), and the tied credentials' nicknames follow the customer in the same transaction.

const contactOf = { EMAIL_OTP: "email", SMS_OTP: "phoneNumber" } as const;
const codes = {
  EMAIL_OTP: { taken: "EMAIL_OTP_EMAIL_ALREADY_EXISTS", changed: "EMAIL_OTP_CREDENTIAL_SET_CHANGED" },
  SMS_OTP: { taken: "SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS", changed: "SMS_OTP_CREDENTIAL_SET_CHANGED" },
} as const;

/**
 * `PATCH /customers/{id}`: merges profile fields and records new consents; KYC status is not touched.
 * Changing `email` or `phoneNumber` while OTP credentials are tied to it is a signed retry (§5.2):
 * `202`, then the signed request applies it (performContactChange).
 */
export async function updateCustomer(
  deps: Deps,
  caller: Caller,
  rawId: string,
  input: CustomerInput,
  http: SignedHttp,
): Promise<{ status: number; body: unknown }> {
  checkUmaAddress(input.umaAddress);
  consentsOf(input); // checked here too, so a bad consent is 400 before the customer's 404
  return mapConflicts(
    () =>
      deps.db.transaction(async (tx) => {
        const row = await findActiveCustomerOrThrow(tx, caller, rawId);
        checkTypeFields(row.customer_type, input);
        const now = nowFor(deps, caller);
        const signed = await signedContactChange(tx, deps, {
          caller,
          customer: row,
          body: input,
          http,
          now,
        });
        return signed ?? { status: 200, body: await applyCustomerUpdate(tx, row, input, now) };
      }),
    input,
  );
}

/** The OTP types whose contact this PATCH changes (a value equal to the one on file is no change). */
function changedTypes(customer: CustomerRow, input: CustomerInput): OtpType[] {
  return (["EMAIL_OTP", "SMS_OTP"] as const).filter((type) => {
    const field = contactOf[type];
    return input[field] !== undefined && input[field] !== customer.profile[field];
  });
}

/**
 * The customer's embedded wallets, oldest first. Every EMAIL_OTP (SMS_OTP) credential of a customer's
 * wallet is tied to the customer's e-mail (phone) on file (interface, Authentication rule 3), so the live
 * ones of all these wallets (lockOtpCredentials) follow a change.
 */
async function embeddedWallets(tx: Tx, customerId: string): Promise<string[]> {
  const accounts = await listAccountsOfCustomer(tx, customerId);
  return accounts.filter((account) => account.type === "EMBEDDED_WALLET").map((account) => account.id);
}

/** `409 …_ALREADY_EXISTS` when another customer's wallet already has the new contact on such a credential. */
async function checkContactFree(
  tx: Tx,
  platformId: string,
  wallets: string[],
  tied: OtpCredential[],
  input: CustomerInput,
): Promise<void> {
  for (const type of new Set(tied.map((credential) => credential.type))) {
    const contact = String(input[contactOf[type]]);
    if (await contactTiedElsewhere(tx, platformId, wallets, type, contact))
      throw new ApiError(codes[type].taken, {
        reason: `${contact} is already tied to another customer's embedded wallet ${type} credential.`,
      });
  }
}

const sameSet = (a: OtpCredential[], b: OtpCredential[]) =>
  a.length === b.length &&
  a.every((x, i) => x.id === b[i]?.id && x.nickname === b[i]?.nickname && x.accountId === b[i]?.accountId);

/**
 * The signed-retry path of `PATCH /customers/{customerId}`, or undefined when the PATCH is a plain one:
 * a first call where neither `email` nor `phoneNumber` changes, or no credential is tied to it. The
 * operation is bound to the first wallet holding a tied credential; a session of any of the customer's
 * embedded wallets may sign it. Never PROCESSING: the interface does not list this endpoint for it.
 */
async function signedContactChange(
  tx: Tx,
  deps: Deps,
  input: { caller: Caller; customer: CustomerRow; body: CustomerInput; http: SignedHttp; now: Date },
): Promise<SignedResponse | undefined> {
  const { caller, customer, body, http, now } = input;
  const types = changedTypes(customer, body);
  const wallets = await embeddedWallets(tx, customer.id);
  const tied = await lockOtpCredentials(tx, wallets, types);
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
 * `UPDATE_CUSTOMER`, the signed change: the tied set must be the one the signer approved
 * (`409 …_CREDENTIAL_SET_CHANGED` otherwise), the new contact still free, then the customer and the
 * credentials' nicknames change together.
 */
export async function performContactChange(
  tx: Tx,
  _deps: Deps,
  request: SignedRequestRow,
  _signer: string,
  now: Date,
): Promise<SignedResponse> {
  const body = request.context.body as CustomerInput;
  const approved = request.context.tied as OtpCredential[];
  const customer = await findCustomer(tx, request.platform_id, String(request.context.customerId), true);
  if (!customer) throw new Error(`signed request ${request.id} names a missing customer`);
  if (customer.is_deleted)
    throw new ApiError("CONFLICT", { reason: `Customer ${customer.id} is deleted and cannot be changed.` });
  const wallets = await embeddedWallets(tx, customer.id);
  // A credential tied since the challenge (a type that had none then) is a change of the set too.
  const types = [
    ...new Set([...approved.map((credential) => credential.type), ...changedTypes(customer, body)]),
  ];
  const current = await lockOtpCredentials(tx, wallets, types);
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
  for (const credential of current)
    await setOtpContact(tx, credential.id, String(body[contactOf[credential.type]]), now);
  return { status: 200, body: updated };
}

/**
 * The customer's phone changed by an operation that has already proven the person (a completed SCA
 * two-factor reset's `mobile`), in that operation's transaction and as a plain PATCH changes it. While
 * SMS_OTP credentials of the customer's embedded wallets are tied to the phone, only a signed PATCH may
 * change it (§5.2): `409 CONFLICT`.
 */
export async function changePhoneNumber(
  tx: Tx,
  customer: CustomerRow,
  phoneNumber: string,
  now: Date,
): Promise<void> {
  const input: CustomerInput = { phoneNumber };
  if (changedTypes(customer, input).length === 0) return;
  const tied = await lockOtpCredentials(tx, await embeddedWallets(tx, customer.id), ["SMS_OTP"]);
  if (tied.length > 0)
    throw new ApiError("CONFLICT", {
      reason: `Customer ${customer.id}'s phoneNumber is tied to embedded wallet SMS_OTP credentials: change it with a signed PATCH /customers/{customerId}.`,
    });
  await applyCustomerUpdate(tx, customer, input, now);
}
