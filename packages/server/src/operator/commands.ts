import { setCardLimits } from "../cards/limits.js";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { secretsOf } from "../core/secrets/process-box.js";
import { findPlatform } from "../platform/store.js";
import { createPlatform } from "../platform-config/platforms.js";
import { setDailyVolumeLimit } from "../quotes/daily-volume.js";
import { rotateSigningKey } from "../webhooks/signing-keys.js";

/** The operator's changes to the service (never a platform's): the same whether run in process or remotely. */
export type OperatorCommand =
  | { kind: "create-platform"; name: string; environment: "SANDBOX" | "PRODUCTION" }
  | {
      kind: "card-limits";
      platformId: string;
      maxLiveCards: number;
      /** A number sets the cap, null removes it, absent keeps it. */
      maxLiveCardsPerCardholder?: number | null;
    }
  | { kind: "daily-volume-limit"; platformId: string; dailyVolumeLimit: number }
  | { kind: "rotate-webhook-key"; platformId: string };

async function requirePlatform(deps: Pick<Deps, "db">, platformId: string): Promise<void> {
  if (!(await findPlatform(deps.db, platformId)))
    throw new ApiError("PLATFORM_NOT_FOUND", { reason: `No platform ${platformId}.` });
}

/** Runs one operator command on the database and answers what it changed. */
export async function performOperatorCommand(
  deps: Pick<Deps, "db" | "clock" | "secrets">,
  command: OperatorCommand,
): Promise<unknown> {
  switch (command.kind) {
    case "create-platform":
      return createPlatform(deps, { name: command.name, environment: command.environment });
    case "card-limits":
      await requirePlatform(deps, command.platformId);
      return setCardLimits(deps, command.platformId, {
        maxLiveCards: command.maxLiveCards,
        ...(command.maxLiveCardsPerCardholder !== undefined
          ? { maxLiveCardsPerCardholder: command.maxLiveCardsPerCardholder }
          : {}),
      });
    case "daily-volume-limit":
      await requirePlatform(deps, command.platformId);
      return setDailyVolumeLimit(deps, command.platformId, command.dailyVolumeLimit);
    case "rotate-webhook-key": {
      await requirePlatform(deps, command.platformId);
      const now = deps.clock.now();
      const key = await rotateSigningKey(deps.db, command.platformId, now, secretsOf(deps));
      return { platformId: command.platformId, newKey: key, listedAt: now.toISOString() };
    }
  }
}
