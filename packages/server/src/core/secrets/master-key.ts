import { randomBytes } from "node:crypto";
import { chmod, link, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { LocalKek, MASTER_KEY_BYTES, newMasterKeyText, parseMasterKey } from "./local-kek.js";
import { SecretBox } from "./secret-box.js";

/**
 * Where the master key comes from (docs/decisions.md "Security (issue 16)"), in this order:
 * `PAYSVC_MASTER_KEY`, or `PAYSVC_MASTER_KEY_FILE`; a sandbox without either: `<data dir>/master.key`,
 * made on the first start; a `--memory` sandbox: a key that lives as long as its database. Keys that only
 * open older values during a rotation: `PAYSVC_PREVIOUS_MASTER_KEYS`, and the lines after the first of a
 * key file.
 */
export type MasterKeySource =
  | { kind: "configured"; keys: Buffer[] }
  | { kind: "data-dir"; file: string; previous: Buffer[] }
  | { kind: "ephemeral" };

export interface MasterKeySettings {
  mode: "sandbox" | "production";
  memory: boolean;
  dataDir: string;
}

/** The data directory's own key file (sandbox only). */
export const dataDirKeyFile = (dataDir: string) => join(resolve(dataDir), "master.key");

/** One key per line, the current one first; blank lines and `#` comments are skipped. */
function parseKeyLines(text: string, source: string): Buffer[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("#"));
  return lines.map((line, i) => parseMasterKey(line, `${source} line ${i + 1}`));
}

async function readKeyFile(file: string, source: string): Promise<Buffer[]> {
  const keys = parseKeyLines(await readFile(file, "utf8"), source);
  if (keys.length === 0) throw new Error(`${source} holds no master key`);
  return keys;
}

function previousKeys(env: NodeJS.ProcessEnv): Buffer[] {
  const text = env.PAYSVC_PREVIOUS_MASTER_KEYS ?? "";
  return text
    .split(/[\s,]+/)
    .filter((part) => part.length > 0)
    .map((part, i) => parseMasterKey(part, `PAYSVC_PREVIOUS_MASTER_KEYS entry ${i + 1}`));
}

/**
 * Resolves the master key's source without writing anything, so a production start without a key stops
 * before it opens, locks or migrates anything.
 */
export async function masterKeySource(
  env: NodeJS.ProcessEnv,
  settings: MasterKeySettings,
): Promise<MasterKeySource> {
  const { PAYSVC_MASTER_KEY: inline, PAYSVC_MASTER_KEY_FILE: file } = env;
  if (inline && file) throw new Error("set PAYSVC_MASTER_KEY or PAYSVC_MASTER_KEY_FILE, not both");
  const previous = previousKeys(env);
  if (inline) return { kind: "configured", keys: [parseMasterKey(inline, "PAYSVC_MASTER_KEY"), ...previous] };
  if (file)
    return {
      kind: "configured",
      keys: [...(await readKeyFile(file, `PAYSVC_MASTER_KEY_FILE (${file})`)), ...previous],
    };
  if (settings.mode === "production")
    throw new Error(
      "production needs a master key kept outside the database: set PAYSVC_MASTER_KEY (32 bytes as 64 hex digits or base64, e.g. from `openssl rand -hex 32`) or PAYSVC_MASTER_KEY_FILE",
    );
  if (settings.memory) return { kind: "ephemeral" };
  return { kind: "data-dir", file: dataDirKeyFile(settings.dataDir), previous };
}

/**
 * Writes a key file as a whole or not at all: beside it, then renamed over it. Mode 0600; the data
 * directory itself is 0700.
 */
export async function writeKeyFile(file: string, keys: string[]): Promise<void> {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(aside, `${keys.join("\n")}\n`, { mode: 0o600, flag: "wx" });
  await rename(aside, file);
}

/**
 * The data directory's key, made on the first start. Two processes starting together on one PostgreSQL
 * database and one data directory keep the same key: the file appears whole (written aside, then linked,
 * which fails if it exists) and the loser reads the winner's.
 */
async function ensureDataDirKey(file: string): Promise<{ keys: Buffer[]; created: boolean }> {
  const existing = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (existing !== undefined) {
    // A key file others can read protects nothing from them.
    if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
    return { keys: parseKeyLines(existing, file), created: false };
  }
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const aside = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(aside, `${newMasterKeyText()}\n`, { mode: 0o600, flag: "wx" });
  let created = true;
  try {
    await link(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    created = false;
  } finally {
    await rm(aside, { force: true });
  }
  return { keys: await readKeyFile(file, file), created };
}

export interface OpenedSecrets {
  box: SecretBox;
  /** The data directory's key file when this call made it. */
  createdKeyFile?: string;
}

const boxOf = (keys: Buffer[]) => {
  const [current, ...previous] = keys.map((key) => new LocalKek(key));
  if (!current) throw new Error("no master key");
  return new SecretBox(current, previous);
};

/** The box over the source's keys; a sandbox data directory without a key file gets one now. */
export async function openSecrets(source: MasterKeySource): Promise<OpenedSecrets> {
  switch (source.kind) {
    case "configured":
      return { box: boxOf(source.keys) };
    case "ephemeral":
      return { box: boxOf([randomBytes(MASTER_KEY_BYTES)]) };
    case "data-dir": {
      const { keys, created } = await ensureDataDirKey(source.file);
      return {
        box: boxOf([...keys, ...source.previous]),
        ...(created ? { createdKeyFile: source.file } : {}),
      };
    }
  }
}
