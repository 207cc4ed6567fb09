import { randomBytes } from "node:crypto";
import { LocalKek, MASTER_KEY_BYTES } from "./local-kek.js";
import { SecretBox } from "./secret-box.js";

let installed: SecretBox | undefined;

/**
 * The box of this process, for the few callers that are handed no Deps: `checkOtpBundle` (called from
 * wallet-auth/credential-auth.ts) and the webhook key functions (webhooks/delivery.ts, webhooks/routes.ts,
 * operator/commands.ts) take it as an optional last argument. main.ts installs the configured box before
 * it serves or writes, the test harness its test box. Once those callers pass `deps.secrets`, this goes.
 */
export function useProcessSecrets(box: SecretBox): void {
  installed = box;
}

/**
 * The installed box; none installed (an in-process tool over a throwaway database: `npm run fuzz`,
 * `npm run bench`): one ephemeral key for the life of the process.
 */
export function processSecrets(): SecretBox {
  installed ??= new SecretBox(new LocalKek(randomBytes(MASTER_KEY_BYTES)));
  return installed;
}

/**
 * A box that seals and opens nothing: what main.ts installs for a command that loads no master key, so
 * a path that needs one fails loudly instead of sealing under a throwaway key.
 */
export function noSecrets(why: string): SecretBox {
  const refuse = async (): Promise<Uint8Array> => {
    throw new Error(why);
  };
  return new SecretBox({ id: "none", encrypt: refuse, decrypt: refuse });
}

/** `deps.secrets`, or the process's box when the deps were built without one. */
export function secretsOf(deps: { secrets?: SecretBox | undefined }): SecretBox {
  return deps.secrets ?? processSecrets();
}
