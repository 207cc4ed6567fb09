import { parseArgs } from "node:util";

export const rotateWebhookKeyUsage = `usage: paysvc rotate-webhook-key --platform <Platform id>
  Rotates one platform's webhook signing key (conventions §7.2): the new key is listed at once and signs
  from 24 hours later; the current key retires then and stays listed 8 more days. Other platforms' keys do
  not change. Operator only: --data-dir DIR (env PAYSVC_DATA_DIR, default .paysvc) or DATABASE_URL, as for
  paysvc start; on an embedded directory a running server holds, it goes through that server's operator API.`;

export interface RotateWebhookKeyCommand {
  platformId: string;
  databaseUrl?: string;
  dataDir: string;
}

/** Parses `rotate-webhook-key` arguments; anything invalid fails fast with one readable message. */
export function parseRotateWebhookKeyArgs(argv: string[], env: NodeJS.ProcessEnv): RotateWebhookKeyCommand {
  let values: { platform?: string; "data-dir"?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { platform: { type: "string" }, "data-dir": { type: "string" } },
    }));
  } catch (error) {
    throw new Error(
      `invalid rotate-webhook-key arguments: ${(error as Error).message}\n${rotateWebhookKeyUsage}`,
    );
  }
  if (!values.platform?.startsWith("Platform:"))
    throw new Error(
      `invalid rotate-webhook-key arguments: --platform <Platform id> required\n${rotateWebhookKeyUsage}`,
    );
  return {
    platformId: values.platform,
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: values["data-dir"] ?? env.PAYSVC_DATA_DIR ?? ".paysvc",
  };
}
