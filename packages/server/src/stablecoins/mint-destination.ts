import type { Tx } from "../core/db/db.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { findExternalAccount } from "../external-accounts/store.js";
import { selectProviderAccount } from "./provider-accounts.js";
import type { MintBody } from "./schemas.js";
import type { ProviderAccountRow, StablecoinRow } from "./store.js";

export interface MintDestination {
  provider: ProviderAccountRow;
  /** The external wallet that receives the tokens; undefined: the provider account's treasury. */
  walletId: string | undefined;
}

/**
 * Where a mint's tokens go (the hosted `destination.accountId`) and which provider account mints them.
 * An `ExternalAccount:` id is a wallet of the platform or one of its customers on the stablecoin's network
 * (unknown → `404 ACCOUNT_NOT_FOUND`, another kind → `400 STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED`, not
 * ACTIVE → `409 CONFLICT`), minted by `stablecoinProviderAccountId` or the only ACTIVE link. Any other id is
 * a provider account link whose treasury holds the tokens, as burns need.
 */
export async function mintDestination(
  tx: Tx,
  caller: Caller,
  input: Pick<MintBody, "destination" | "stablecoinProviderAccountId">,
  coin: StablecoinRow,
): Promise<MintDestination> {
  const rawId = input.destination.accountId;
  const walletId = parseId("ExternalAccount", rawId);
  if (walletId === null) {
    if (input.stablecoinProviderAccountId !== undefined && input.stablecoinProviderAccountId !== rawId)
      throw invalidField(
        "stablecoinProviderAccountId",
        "must be destination.accountId when the destination is a provider account",
      );
    return { provider: await selectProviderAccount(tx, caller, rawId, coin.network), walletId: undefined };
  }
  const provider = await selectProviderAccount(tx, caller, input.stablecoinProviderAccountId, coin.network);
  const wallet = await findExternalAccount(tx, caller.platformId, walletId);
  if (!wallet) throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No external account ${rawId}.` });
  if (wallet.account_type !== `${coin.network}_WALLET`)
    throw new ApiError("STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED", {
      reason: `${coin.symbol} lives on ${coin.network}: its tokens go to a ${coin.network}_WALLET, not a ${wallet.account_type}.`,
    });
  if (wallet.status !== "ACTIVE")
    throw new ApiError("CONFLICT", {
      reason: `External account ${wallet.id} is ${wallet.status}, not ACTIVE.`,
    });
  return { provider, walletId: wallet.id };
}
