import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { authenticate } from "../auth/tokens.js";
import type { Deps } from "../core/deps.js";
import { createPlatform } from "./platforms.js";

export interface SandboxCredentials {
  platformId: string;
  tokenId: string;
  clientId: string;
  clientSecret: string;
}

async function readCredentials(path: string): Promise<SandboxCredentials | null> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as SandboxCredentials;
  } catch {
    return null;
  }
}

/**
 * First sandbox start: create the sandbox platform and its token, and write them to `path` (mode 0600).
 * Later starts reuse them while the token still authenticates against this database. `created` says
 * which, so the secret is shown once, when it is made (issue 16 item 10).
 */
export async function ensureSandboxPlatform(
  deps: Pick<Deps, "db" | "clock">,
  path: string,
): Promise<{ credentials: SandboxCredentials; created: boolean }> {
  const saved = await readCredentials(path);
  if (saved && (await authenticate(deps.db, saved.clientId, saved.clientSecret)))
    return { credentials: saved, created: false };
  const created = await createPlatform(deps, { name: "Sandbox platform", environment: "SANDBOX" });
  const credentials: SandboxCredentials = {
    platformId: created.platform.id,
    tokenId: created.token.id,
    clientId: created.token.clientId,
    clientSecret: created.token.clientSecret,
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return { credentials, created: true };
}
