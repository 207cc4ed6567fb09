import { randomBytes } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * `<data dir>/operator.json` (0600): the operator credential, made at the first start and kept, and the
 * address of the server that holds the directory now. Operator commands read it to reach the running
 * server; it is never a platform token and the API never accepts it outside `/_operator`.
 */
export interface OperatorFile {
  secret: string;
  /** The running server's base address, e.g. http://127.0.0.1:8080; absent once it stopped. */
  url?: string;
}

const fileOf = (dataDir: string) => join(dataDir, "operator.json");

export async function readOperatorFile(dataDir: string): Promise<OperatorFile | undefined> {
  try {
    const parsed = JSON.parse(await readFile(fileOf(dataDir), "utf8")) as Partial<OperatorFile>;
    if (typeof parsed.secret !== "string" || parsed.secret.length < 32) return undefined;
    return { secret: parsed.secret, ...(typeof parsed.url === "string" ? { url: parsed.url } : {}) };
  } catch {
    return undefined;
  }
}

async function writeOperatorFile(dataDir: string, file: OperatorFile): Promise<void> {
  // Written aside and renamed, so a reader never sees half a file.
  const path = fileOf(dataDir);
  await writeFile(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

/** The operator secret, created on the first start. */
export async function ensureOperatorSecret(dataDir: string): Promise<string> {
  const existing = await readOperatorFile(dataDir);
  if (existing) return existing.secret;
  const secret = randomBytes(32).toString("hex");
  await writeOperatorFile(dataDir, { secret });
  return secret;
}

/** Publishes (or, with undefined, withdraws) the address operator commands reach the server at. */
export async function publishServerUrl(dataDir: string, url: string | undefined): Promise<void> {
  const secret = await ensureOperatorSecret(dataDir);
  await writeOperatorFile(dataDir, { secret, ...(url ? { url } : {}) });
}
