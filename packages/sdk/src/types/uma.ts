import type { Currency, Page, PageParams, SortedPageParams } from "./common.js";

/** One currency a UMA receiver takes (`GET /receiver/uma/{address}`): an estimated rate from USD and limits. */
export interface UmaCurrencyPreference {
  currency: Currency;
  /** Receiving major units per US dollar, as the receiver's VASP prices it now. */
  estimatedExchangeRate: number;
  /** Per-payment bounds in the currency's minor units. */
  min: number;
  max: number;
}

/** The hosted API's ReceiverUmaLookupResponse: the `lookupId` goes on a quote to the address. */
export interface ReceiverUmaLookupResponse {
  lookupId: string;
  receiverUmaAddress: string;
  supportedCurrencies: UmaCurrencyPreference[];
  /** Payer data the receiving VASP asks for (`FULL_NAME`, `EMAIL`…), mandatory or not. */
  requiredPayerDataFields: { name: string; mandatory: boolean }[];
}

/** The hosted API's ReceiverExternalAccountLookupResponse: the `lookupId` may go on a payout quote to the account. */
export interface ReceiverExternalAccountLookupResponse {
  lookupId: string;
  accountId: string;
  /** One entry, the account's currency, at the platform's cached rate from USD, up to the corridor's maximum. */
  supportedCurrencies: UmaCurrencyPreference[];
  /** Always empty: the payer is the platform's own customer (or the platform), whose details are on file. */
  requiredPayerDataFields: { name: string; mandatory: boolean }[];
}

/** Query of `GET /receiver/uma/{receiverUmaAddress}` and `GET /receiver/external-account/{accountId}`. */
export interface UmaLookupParams {
  /** The sending customer's UMA address, when the lookup is on its behalf. */
  senderUmaAddress?: string;
  /** The sending customer (`Customer:…`); unknown → `NotFoundError`. */
  customerId?: string;
}

/** A UMA provider this deployment knows (`GET /uma-providers`). */
export interface UmaProvider {
  name: string;
  domain: string;
  /** ISO 3166-1 alpha-2: the home markets of the currencies it receives. */
  supportedRegions: string[];
  supportedCurrencies: Currency[];
  allowListStatus: boolean;
}

/** Query of `GET /uma-providers`; ordered by domain (`desc` by default). */
export interface UmaProviderListParams extends SortedPageParams {
  countryCode?: string;
  currencyCode?: string;
  hasBlockedProviders?: boolean;
}

export type UmaProviderListResponse = Page<UmaProvider>;

/** A VASP this deployment knows (`GET /vasps`): `url` is the base its UMA endpoints answer at. */
export interface Vasp {
  vaspName: string;
  url: string;
}

/** `GET /vasps`: one page, ordered by name; this list has no `totalCount`. */
export interface VaspListResponse {
  data: Vasp[];
  hasMore: boolean;
  nextCursor?: string;
}

export type VaspListParams = PageParams;
