import type { Static } from "typebox";
import { expectTypeOf, test } from "vitest";
import type * as auth from "../../server/src/auth/schemas.js";
import type * as management from "../../server/src/cards/management-schemas.js";
import type * as cards from "../../server/src/cards/schemas.js";
import type * as customers from "../../server/src/customers/schemas.js";
import type * as platform from "../../server/src/platform/schemas.js";
import type * as sandboxCards from "../../server/src/sandbox/card-routes.js";
import type * as statements from "../../server/src/statements/schemas.js";
import type * as transactions from "../../server/src/transactions/schemas.js";
import type * as sdk from "../src/index.js";

// The SDK writes its wire types out so the published package does not depend on the server or TypeBox;
// these assertions are checked by `tsc -p packages/sdk` and fail the build when a server schema drifts.
test("SDK wire types equal the server's TypeBox schemas", () => {
  expectTypeOf<sdk.CreateTokenBody>().toEqualTypeOf<Static<typeof auth.CreateTokenBody>>();
  expectTypeOf<sdk.ApiToken>().toEqualTypeOf<Static<typeof auth.ApiToken>>();
  expectTypeOf<sdk.CreatedApiToken>().toEqualTypeOf<Static<typeof auth.CreatedApiToken>>();
  expectTypeOf<sdk.CreateCustomerBody>().toEqualTypeOf<Static<typeof customers.CreateCustomerBody>>();
  expectTypeOf<sdk.UpdateCustomerBody>().toEqualTypeOf<Static<typeof customers.UpdateCustomerBody>>();
  expectTypeOf<sdk.Customer>().toEqualTypeOf<Static<typeof customers.Customer>>();
  expectTypeOf<sdk.Agreement>().toEqualTypeOf<Static<typeof customers.Agreement>>();
  expectTypeOf<sdk.InternalAccount>().toEqualTypeOf<Static<typeof customers.InternalAccount>>();
  expectTypeOf<sdk.PlatformConfig>().toEqualTypeOf<Static<typeof platform.PlatformConfig>>();
  expectTypeOf<sdk.UpdateConfigBody>().toEqualTypeOf<Static<typeof platform.UpdateConfigBody>>();
  expectTypeOf<sdk.Transaction>().toEqualTypeOf<Static<typeof transactions.Transaction>>();
  expectTypeOf<sdk.BalanceChangeParams>().toEqualTypeOf<Static<typeof statements.BalanceChangesQuery>>();
  expectTypeOf<sdk.BalanceChange>().toEqualTypeOf<Static<typeof statements.BalanceChange>>();
  expectTypeOf<sdk.BalanceChangeWindow>().toEqualTypeOf<Static<typeof statements.BalanceChangeWindow>>();
  expectTypeOf<sdk.StatementConfirmationBody>().toEqualTypeOf<
    Static<typeof statements.StatementConfirmationBody>
  >();
  expectTypeOf<sdk.DeliveryRecord>().toEqualTypeOf<Static<typeof statements.DeliveryRecord>>();
  expectTypeOf<sdk.ConfirmedDeliveryRecord>().toEqualTypeOf<
    Static<typeof statements.ConfirmedDeliveryRecord>
  >();
  expectTypeOf<sdk.Card>().toEqualTypeOf<Static<typeof cards.Card>>();
  expectTypeOf<sdk.CreateCardBody>().toEqualTypeOf<Static<typeof cards.CreateCardBody>>();
  expectTypeOf<sdk.UpdateCardBody>().toEqualTypeOf<Static<typeof cards.UpdateCardBody>>();
  expectTypeOf<sdk.CardListParams>().toEqualTypeOf<Static<typeof cards.ListCardsQuery>>();
  expectTypeOf<sdk.CardMerchant>().toEqualTypeOf<Static<typeof cards.Merchant>>();
  expectTypeOf<sdk.CardTransaction>().toEqualTypeOf<Static<typeof cards.CardTransaction>>();
  expectTypeOf<{ pin: string }>().toEqualTypeOf<Static<typeof management.SetPinBody>>();
  expectTypeOf<sdk.RevealLink>().toEqualTypeOf<Static<typeof management.RevealLink>>();
  expectTypeOf<sdk.TokenizeCardBody>().toEqualTypeOf<Static<typeof management.TokenizeCardBody>>();
  expectTypeOf<sdk.TokenizeCardResult>().toEqualTypeOf<Static<typeof management.TokenizeCardResult>>();
  expectTypeOf<{ pin: string }>().toEqualTypeOf<Static<typeof management.PinAttemptBody>>();
  expectTypeOf<sdk.PinAttemptResult>().toEqualTypeOf<Static<typeof management.PinAttemptResult>>();
  expectTypeOf<sdk.CardSimulationResult>().toEqualTypeOf<Static<typeof sandboxCards.SimulationResult>>();
});
