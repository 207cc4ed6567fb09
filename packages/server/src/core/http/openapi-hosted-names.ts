/**
 * Hosted component names by the sorted property names of an object (the hosted document's schemas,
 * reference/hosted-api/schemas.md), kept only for shapes this API has: an object of ours with exactly
 * these properties is named as the hosted document names it. Generated once from both documents; where
 * several hosted schemas share a shape, the general one (CurrencyAmount) was chosen.
 */
export const hostedShapeNames: Record<string, string> = {
  "acceptedDocumentTypes,field,reason,resourceId,type": "VerificationError",
  "accountId,attestation,challenge,nickname,type": "PasskeyCredentialCreateRequest",
  "accountId,cardId,createdAt,fundingSourceId,id,nickname,publicKey,status,updatedAt": "DelegatedKey",
  "accountId,createdAt,credentialId,id,nickname,otpEncryptionTargetBundle,type,updatedAt":
    "AuthMethodResponse",
  "accountId,oidcToken,type": "OauthCredentialCreateRequest",
  "accountId,paymentRail": "ExternalAccountDestinationReference",
  "accountInfo,currency,customerId,defaultUmaDepositAccount,ownershipType,platformAccountId":
    "ExternalAccountCreateRequest",
  "accountNumber,accountType,bankAccountType,bankName,beneficiary": "GtqExternalAccountCreateInfo",
  "accountNumber,accountType,bankAccountType,bankName,beneficiary,branchCode": "JmdExternalAccountCreateInfo",
  "accountNumber,accountType,bankAccountType,bankName,beneficiary,fiToFiInformation,intermediaryBankName,intermediaryRoutingNumber,routingNumber":
    "UsdExternalAccountCreateInfo",
  "accountNumber,accountType,bankCode,beneficiary,branchCode": "CadExternalAccountCreateInfo",
  "accountNumber,accountType,bankName,beneficiary,branchCode,phoneNumber,swiftCode":
    "BdtExternalAccountCreateInfo",
  "accountNumber,accountType,bankName,beneficiary,country,iban,swiftCode": "SwiftExternalAccountCreateInfo",
  "accountNumber,accountType,bankName,beneficiary,iban,phoneNumber": "PkrExternalAccountCreateInfo",
  "accountNumber,accountType,bankName,beneficiary,ifsc,rail,vpa": "InrExternalAccountCreateInfo",
  "accountNumber,accountType,bankName,beneficiary,phoneNumber,swiftCode": "IdrExternalAccountCreateInfo",
  "accountNumber,accountType,beneficiary,sortCode": "GbpExternalAccountCreateInfo",
  "accountOrWalletInfo,instructionsNotes,isPlatformAccount": "PaymentInstructions",
  "accountType,bankName,beneficiary,iban,phoneNumber": "EgpExternalAccountCreateInfo",
  "accountType,beneficiary,clabeNumber": "MxnExternalAccountCreateInfo",
  "accountType,beneficiary,phoneNumber": "HtgExternalAccountCreateInfo",
  "accountType,beneficiary,pixKey,pixKeyType,taxId": "BrlExternalAccountCreateInfo",
  "accountType,payloadToSign": "PaymentEmbeddedWalletInfo",
  "address,beneficiaryType,birthDate,countryOfResidence,documentNumber,documentType,email,fullName,nationality,phoneNumber":
    "CopBeneficiary",
  "address,beneficiaryType,birthDate,countryOfResidence,email,fullName,nationality,phoneNumber,registrationNumber":
    "CadBeneficiary",
  "agentId,createdAt,customerId,id,platformCustomerId,quote,rejectionReason,status,transaction,transferDetails,type,updatedAt":
    "AgentAction",
  "allowedOrigins,challengeId,expiresAt,factor,passkeyOptions,relyingPartyId": "ScaLoginStart",
  "allowedOrigins,options,relyingPartyId,type": "PasskeyEnrollmentStart",
  amount: "SandboxFundRequest",
  "amount,cryptoNetwork,currency,destinationAddress,internalAccountId": "EstimateCryptoWithdrawalFeeRequest",
  "amount,currency,destinationAccountId,sourceAccountId": "AgentTransferDetails",
  "amount,currency,merchant": "SandboxCardAuthorizationRequest",
  "amount,destination,purposeOfPayment,remittanceInformation,source": "TransferOutRequest",
  "amount,destination,source": "TransferInRequest",
  "applicationFee,netAmount,networkFee,networkFeeAsset,totalFee": "EstimateCryptoWithdrawalFeeResponse",
  "attestationObject,clientDataJson,credentialId,transports": "PasskeyAttestation",
  "authenticatorData,clientDataJson,credentialId,signature,userHandle": "PasskeyAssertion",
  "availableFactors,expiresAt,factor,id,passkeyAllowedOrigins,passkeyAssertionOptions,purpose":
    "ScaChallenge",
  "balance,createdAt,customerId,fundingPaymentInstructions,id,privateEnabled,status,totalBalance,type,updatedAt":
    "InternalAccount",
  "cardId,internalAccountId,nickname": "DelegatedKeyCreateRequest",
  cardTransactionId: "SandboxCardTransactionRefRequest",
  "cardholderId,form,fundingSources,maxSpendPerTransaction,platformCardId,threeDSecurePassword":
    "CardCreateRequest",
  "challengeId,code,endUserIpAddress,factor,origin,passkeyAssertion": "ScaLoginCompleteRequest",
  "challengeId,code,origin,passkeyAssertion": "BeneficiaryTrustConfirmRequest",
  "city,country,line1,line2,postalCode,state": "Address",
  "clientId,clientSecret,createdAt,id,name,permissions,updatedAt": "ApiToken",
  code: "ContactVerificationConfirmRequest",
  "code,decimals,name,symbol": "Currency",
  "code,endUserIpAddress,origin,passkeyAssertion": "ScaAuthorization",
  "code,redeemed": "AgentDeviceCodeStatusResponse",
  "completedAt,errors,id,progress,status": "BulkCustomerImportJob",
  "count,pendingCount,totalAmount": "CardPullSummary",
  "createdAt,customerId,errors,id,updatedAt,verificationStatus": "Verification",
  "createdAt,customerId,id,kycStatus,ownershipPercentage,personalInfo,roles,updatedAt": "BeneficialOwner",
  "credentialId,factor,name": "ScaFactorView",
  "currency,estimatedExchangeRate,max,min": "CurrencyPreference",
  "currencyAmount,currencyCode,quoteId": "SandboxSendRequest",
  customerId: "VerificationRequest",
  "customerId,name,policy": "AgentCreateRequest",
  "customerId,ownershipPercentage,personalInfo,roles": "BeneficialOwnerCreateRequest",
  "customerId,receiverUmaAddress,receivingCurrencyAmount,receivingCurrencyCode,senderUmaAddress":
    "SandboxUmaReceiveRequest",
  "data,hasMore,nextCursor": "VaspListResponse",
  "description,destination,immediatelyExecute,lockedCurrencyAmount,lockedCurrencySide,lookupId,platformFeeOverride,purposeOfPayment,remittanceInformation,scaFactor,senderCustomerInfo,source":
    "QuoteRequest",
  "destinationCurrency,destinationPaymentRail,exchangeRate,fees,maxSendingAmount,minSendingAmount,receivingAmount,sendingAmount,sourceCurrency,updatedAt":
    "ExchangeRate",
  destinationType: "BaseDestination",
  "email,phone": "ContactVerification",
  "encryptedWalletCredentials,id": "InternalAccountExportResponse",
  eventType: "RecordSecurityEventRequest",
  "expiresAt,messageToSign,method": "WalletSignatureChallenge",
  "expiresAt,method,token,verificationLink": "LivenessChallenge",
  "expiresAt,panEmbedUrl": "CardRevealResponse",
  "expiresAt,payloadToSign,requestId,type": "AuthSignedRequestChallenge",
  "factor,type": "PasskeyEnrollmentConfirmResponse",
  factors: "ScaFactorList",
  "fixed,total": "ExchangeRateFees",
  inviteeUma: "UmaInvitationClaimRequest",
  "jobId,status": "BulkCustomerImportJobAccepted",
  "lookupId,receiverUmaAddress,requiredPayerDataFields,supportedCurrencies": "ReceiverUmaLookupResponse",
  "mandatory,name": "CounterpartyFieldDefinition",
  merchant: "SandboxCardBalanceInquiryRequest",
  method: "OwnershipChallengeRequest",
  "name,permissions": "ApiTokenCreateRequest",
  "ownershipPercentage,personalInfo,roles": "BeneficialOwnerUpdateRequest",
  privateEnabled: "InternalAccountUpdateRequest",
  receiptDeliveryConfirmedAt: "ConfirmReceiptDeliveryRequest",
  redirectUri: "KycLinkCreateRequest",
  "reference,transactionHash": "ReconciliationInstructions",
  "response_body,response_status,url": "TestWebhookResponse",
  scaChallenge: "BeneficiaryTrustStart",
  scaFactor: "ExecuteQuoteRequest",
  "sessionExpiresAt,status": "ScaLoginComplete",
  "signature,signatureScheme": "OwnershipVerifyRequest",
  sourceType: "BaseQuoteSource",
  trusted: "BeneficiaryTrustConfirm",
  "url,vaspName": "Vasp",
  "url,version": "EndUserTerms",
  "amount,currency": "CurrencyAmount",
  "expiresAt,payloadToSign,requestId": "SignedRequestChallenge",
  "acceptanceMethod,acceptedAt,ipAddress,termsVersion": "EndUserTermsConsent",
};

/**
 * Our own names for shapes the hosted document leaves inline or does not have, by the same key: the body of
 * a signed-retry `200` still settling (wallet-auth/schemas.ts `WalletOperationProcessing`) and the session
 * an auth verify or refresh returns.
 */
export const localShapeNames: Record<string, string> = {
  "message,status": "WalletOperationProcessing",
  "accountId,createdAt,encryptedSessionSigningKey,expiresAt,id,nickname,type,updatedAt": "AuthSession",
};
