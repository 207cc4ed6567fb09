import { readFile } from "node:fs/promises";
import type { Executor } from "../db/db.js";
import { LocalKek, newMasterKeyText, parseMasterKey } from "./local-kek.js";
import { type MasterKeySource, openSecrets, writeKeyFile } from "./master-key.js";
import { checkKeysKnown, resealSecrets, secretsCensus } from "./reseal.js";
import { SecretBox } from "./secret-box.js";

export interface Rotation {
  /** The key every sealed value is under now. */
  keyId: string;
  /** How many values were sealed again, per column label. */
  resealed: Record<string, number>;
}

async function keyFileLines(file: string): Promise<string[]> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("#"));
}

/** Seals every value under `box.current`, then checks that nothing is left under another key or in clear. */
async function resealEverything(db: Executor, box: SecretBox): Promise<Rotation> {
  const resealed = await resealSecrets(db, box, "not-current");
  const left = (await secretsCensus(db)).filter((e) => e.keyId !== box.current.id);
  if (left.length > 0)
    throw new Error(
      `values are still not under master key ${box.current.id}: ${left.map((e) => `${e.count} ${e.label} (${e.keyId ?? "clear"})`).join(", ")}; run rotate-master-key again`,
    );
  return { keyId: box.current.id, resealed };
}

/**
 * `paysvc rotate-master-key` (docs/decisions.md "Security (issue 16)"). A configured key
 * (PAYSVC_MASTER_KEY or its file) is already the new one: every value is sealed again under it, older
 * ones opened with PAYSVC_PREVIOUS_MASTER_KEYS or the key file's later lines. A sandbox data directory's
 * key is replaced here: the new key is written first with the old ones after it (a start in between still
 * opens everything), then every value is sealed again, then the old keys leave the file. Refuses before
 * changing anything if some value is under a key it does not have.
 */
export async function rotateMasterKey(db: Executor, source: MasterKeySource): Promise<Rotation> {
  if (source.kind === "ephemeral") throw new Error("an in-memory database has no master key to rotate");
  if (source.kind === "configured") {
    const { box } = await openSecrets(source);
    checkKeysKnown(await secretsCensus(db), box);
    return resealEverything(db, box);
  }
  const old = await keyFileLines(source.file);
  const oldKeys = [
    ...old.map((line, i) => parseMasterKey(line, `${source.file} line ${i + 1}`)),
    ...source.previous,
  ];
  const fresh = newMasterKeyText();
  const box = new SecretBox(
    new LocalKek(Buffer.from(fresh, "hex")),
    oldKeys.map((key) => new LocalKek(key)),
  );
  checkKeysKnown(await secretsCensus(db), box);
  await writeKeyFile(source.file, [fresh, ...old]);
  const rotation = await resealEverything(db, box);
  await writeKeyFile(source.file, [fresh]);
  return rotation;
}
