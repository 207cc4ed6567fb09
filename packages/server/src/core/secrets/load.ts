import { rm } from "node:fs/promises";
import type { Executor } from "../db/db.js";
import { type MasterKeySource, type OpenedSecrets, openSecrets } from "./master-key.js";
import { checkKeysKnown, resealSecrets, secretsCensus } from "./reseal.js";
import type { SecretBox } from "./secret-box.js";

/**
 * The box of the source's keys for `db`, refused if the database holds values sealed under a key it does
 * not have: a process started with the wrong key stops at once instead of failing request by request, and
 * never seals new values under a key the other processes cannot open. A key file made by this call for a
 * database it refuses is removed again.
 */
export async function secretsForDatabase(db: Executor, source: MasterKeySource): Promise<OpenedSecrets> {
  const opened = await openSecrets(source);
  try {
    checkKeysKnown(await secretsCensus(db), opened.box);
  } catch (error) {
    if (opened.createdKeyFile) await rm(opened.createdKeyFile, { force: true });
    throw error;
  }
  return opened;
}

/**
 * What a start runs before it serves: seals the values still stored in clear (from before issue 16),
 * leaving sealed ones as they are, so a second start finds nothing. Returns how many it sealed.
 */
export async function sealSecretsAtStart(db: Executor, box: SecretBox): Promise<number> {
  const counts = await resealSecrets(db, box, "clear");
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}
