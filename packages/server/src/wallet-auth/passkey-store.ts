import type { Tx } from "../core/db/db.js";

/** Records an authenticator's sign counter after an accepted assertion (the AuthMethod itself is unchanged). */
export async function updatePasskeyCounter(tx: Tx, authMethodId: string, counter: number): Promise<void> {
  await tx.query("UPDATE auth_methods SET passkey_counter = $2 WHERE id = $1", [authMethodId, counter]);
}
