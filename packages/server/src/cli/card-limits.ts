import { parseArgs } from "node:util";
import { type Static, Type } from "typebox";
import { Value } from "typebox/value";
import { setCardLimits } from "../cards/limits.js";
import type { Deps } from "../core/deps.js";

export const cardLimitsUsage = `usage: paysvc card-limits --platform <Platform id> --max-live-cards <n> [--per-cardholder <n>|none]
  Sets a platform's live-card caps (CARD_LIMIT_REACHED). --per-cardholder none removes the per-cardholder
  cap; without --per-cardholder the current one is kept. Operator only: --data-dir DIR (env PAYSVC_DATA_DIR,
  default .paysvc) or DATABASE_URL, as for paysvc start; on an embedded directory a running server holds,
  the change goes through that server's operator API.`;

const CardLimitsCommand = Type.Object({
  platformId: Type.String({ pattern: "^Platform:" }),
  maxLiveCards: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
  maxLiveCardsPerCardholder: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()]),
  ),
  databaseUrl: Type.Optional(Type.String({ pattern: "^postgres(ql)?://" })),
  dataDir: Type.String({ minLength: 1 }),
});
export type CardLimitsCommand = Static<typeof CardLimitsCommand>;

/** Where the command writes: the new limits (JSON) to stdout, failures to stderr. */
export interface CardLimitsIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

// Digits only: Number("") is 0 and Number("1e3") is 1000, neither of which an operator meant.
const count = (text: string | undefined): number | undefined =>
  text === undefined ? undefined : /^\d+$/.test(text) ? Number(text) : Number.NaN;

/** Parses `card-limits` arguments once; anything invalid fails fast with one readable message. */
export function parseCardLimitsArgs(argv: string[], env: NodeJS.ProcessEnv): Readonly<CardLimitsCommand> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        platform: { type: "string" },
        "max-live-cards": { type: "string" },
        "per-cardholder": { type: "string" },
        "data-dir": { type: "string" },
      },
    }));
  } catch (error) {
    throw new Error(`invalid card-limits arguments: ${(error as Error).message}\n${cardLimitsUsage}`);
  }
  const missing = ["platform", "max-live-cards"].filter((flag) => values[flag] === undefined);
  if (missing.length > 0) {
    throw new Error(
      `invalid card-limits arguments: ${missing.map((m) => `--${m}`).join(" and ")} required\n${cardLimitsUsage}`,
    );
  }
  const perCardholder = values["per-cardholder"];
  const candidate = {
    platformId: values.platform,
    maxLiveCards: count(values["max-live-cards"]),
    ...(perCardholder === undefined
      ? {}
      : { maxLiveCardsPerCardholder: perCardholder === "none" ? null : count(perCardholder) }),
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: values["data-dir"] ?? env.PAYSVC_DATA_DIR ?? ".paysvc",
  };
  const errors = [...Value.Errors(CardLimitsCommand, candidate)];
  if (errors.length > 0) {
    const described = errors.map((e) => `${e.instancePath.slice(1) || "arguments"} ${e.message}`).join("; ");
    throw new Error(`invalid card-limits arguments: ${described}\n${cardLimitsUsage}`);
  }
  return Object.freeze(candidate as CardLimitsCommand);
}

/** `paysvc card-limits`: exit 0 with the platform's new limits on stdout, or 1 with the reason on stderr. */
export async function runCardLimitsCommand(
  deps: Pick<Deps, "db">,
  command: CardLimitsCommand,
  io: CardLimitsIo,
): Promise<number> {
  try {
    const limits = await setCardLimits(deps, command.platformId, {
      maxLiveCards: command.maxLiveCards,
      ...(command.maxLiveCardsPerCardholder !== undefined
        ? { maxLiveCardsPerCardholder: command.maxLiveCardsPerCardholder }
        : {}),
    });
    io.stdout.write(`${JSON.stringify(limits, null, 2)}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`paysvc card-limits: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
