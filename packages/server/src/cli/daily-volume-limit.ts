import { parseArgs } from "node:util";
import { type Static, Type } from "typebox";
import { Value } from "typebox/value";
import type { Deps } from "../core/deps.js";
import { setDailyVolumeLimit } from "../quotes/daily-volume.js";

export const dailyVolumeLimitUsage = `usage: paysvc daily-volume-limit --platform <Platform id> --limit <USD cents>
  Sets a platform's daily volume limit (DAILY_VOLUME_LIMIT_EXCEEDED): the executed volume allowed per
  America/Chicago day, in USD cents (default 1000000000, USD 10,000,000.00). Operator only: --data-dir DIR
  (env PAYSVC_DATA_DIR, default .paysvc) or DATABASE_URL, as for paysvc start; on an embedded directory a
  running server holds, the change goes through that server's operator API.`;

const DailyVolumeLimitCommand = Type.Object({
  platformId: Type.String({ pattern: "^Platform:" }),
  dailyVolumeLimit: Type.Integer({ minimum: 0, maximum: 9_000_000_000_000_000 }),
  databaseUrl: Type.Optional(Type.String({ pattern: "^postgres(ql)?://" })),
  dataDir: Type.String({ minLength: 1 }),
});
export type DailyVolumeLimitCommand = Static<typeof DailyVolumeLimitCommand>;

/** Where the command writes: the new limit (JSON) to stdout, failures to stderr. */
export interface DailyVolumeLimitIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const fail = (message: string) =>
  new Error(`invalid daily-volume-limit arguments: ${message}\n${dailyVolumeLimitUsage}`);

/** Parses `daily-volume-limit` arguments once; anything invalid fails fast with one readable message. */
export function parseDailyVolumeLimitArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Readonly<DailyVolumeLimitCommand> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { platform: { type: "string" }, limit: { type: "string" }, "data-dir": { type: "string" } },
    }));
  } catch (error) {
    throw fail((error as Error).message);
  }
  const missing = ["platform", "limit"].filter((flag) => values[flag] === undefined);
  if (missing.length > 0) throw fail(`${missing.map((m) => `--${m}`).join(" and ")} required`);
  const limit = values.limit ?? "";
  const candidate = {
    platformId: values.platform,
    // Digits only: Number("") is 0 and Number("1e3") is 1000, neither of which an operator meant.
    dailyVolumeLimit: /^\d+$/.test(limit) ? Number(limit) : Number.NaN,
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: values["data-dir"] ?? env.PAYSVC_DATA_DIR ?? ".paysvc",
  };
  const errors = [...Value.Errors(DailyVolumeLimitCommand, candidate)];
  if (errors.length > 0)
    throw fail(errors.map((e) => `${e.instancePath.slice(1) || "arguments"} ${e.message}`).join("; "));
  return Object.freeze(candidate as DailyVolumeLimitCommand);
}

/** `paysvc daily-volume-limit`: exit 0 with the new limit on stdout, or 1 with the reason on stderr. */
export async function runDailyVolumeLimitCommand(
  deps: Pick<Deps, "db">,
  command: DailyVolumeLimitCommand,
  io: DailyVolumeLimitIo,
): Promise<number> {
  try {
    const result = await setDailyVolumeLimit(deps, command.platformId, command.dailyVolumeLimit);
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`paysvc daily-volume-limit: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
