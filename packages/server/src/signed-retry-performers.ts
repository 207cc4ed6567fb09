import { performAccountUpdate } from "./customers/update-account.js";
import { performContactChange } from "./customers/update-customer.js";
import { performVerifyOtp } from "./wallet-auth/credential-auth.js";
import { performRevokeCredential } from "./wallet-auth/credential-revoke.js";
import { performAddCredential } from "./wallet-auth/credentials.js";
import { performCreateDelegatedKey } from "./wallet-auth/delegated-keys.js";
import { performExportWallet } from "./wallet-auth/export.js";
import { performRefreshSession, performRevokeSession } from "./wallet-auth/session-actions.js";
import type { SignedRetryPerformers } from "./wallet-auth/signed-retry.js";

/**
 * The operation behind every signed-retry action, one line per action (like jobs.ts for job kinds).
 * main.ts and the test harness hand it to the mechanism in `Deps.signedRetryPerformers`; it sits at the
 * root because customers' operations are here too, and customers imports wallet-auth, not the reverse.
 */
export const signedRetryPerformers: SignedRetryPerformers = {
  ADD_CREDENTIAL: performAddCredential,
  REVOKE_CREDENTIAL: performRevokeCredential,
  VERIFY_OTP: performVerifyOtp,
  REFRESH_SESSION: performRefreshSession,
  REVOKE_SESSION: performRevokeSession,
  EXPORT_WALLET: performExportWallet,
  UPDATE_INTERNAL_ACCOUNT: performAccountUpdate,
  UPDATE_CUSTOMER: performContactChange,
  CREATE_DELEGATED_KEY: performCreateDelegatedKey,
};
