// Generated from the parameter catalogue by `npm run docs`; do not edit by hand.
import type { Endpoint } from './types.js';

/** Every parameter any endpoint accepts, after validation: amounts in hundredths, dates as Date. */
export interface PaymentRequest {
  readonly entityId?: string;
  readonly testMode?: "EXTERNAL" | "INTERNAL";
  readonly shopperResultUrl?: string;
  readonly notificationUrl?: string;
  readonly createRegistration?: boolean;
  readonly overrideHolder?: boolean;
  readonly integrity?: boolean;
  readonly amount?: bigint;
  readonly taxAmount?: bigint;
  readonly discountAmount?: bigint;
  readonly currency?: string;
  readonly paymentType?: "DB" | "PA" | "CD" | "CP" | "RV" | "RF";
  readonly paymentBrand?: string;
  readonly overridePaymentType?: Readonly<Record<string, "DB" | "PA">>;
  readonly descriptor?: string;
  readonly recurringType?: "INITIAL" | "REPEATED";
  readonly merchantTransactionId?: string;
  readonly merchantInvoiceId?: string;
  readonly merchantMemo?: string;
  readonly transactionCategory?: "EC" | "MO" | "TO" | "PO" | "PM" | "MOTO";
  readonly sequence?: string;
  readonly numberOfCaptures?: number;
  readonly promotionCode?: string;
  readonly locale?: string;
  readonly transactionLinkId?: string;
  readonly transactionPurposeCode?: string;
  readonly integrationType?: string;
  readonly transactionBai?: string;
  readonly transactionTti?: string;
  readonly transactionProcessingCode?: "PURCHASE" | "FUNDING" | "PAYMENT";
  readonly forex?: Forex;
  readonly card?: Card;
  readonly walletA?: WalletA;
  readonly walletB?: WalletB;
  readonly walletC?: WalletC;
  readonly virtualAccount?: VirtualAccount;
  readonly tokenAccount?: TokenAccount;
  readonly bankAccount?: BankAccount;
  readonly transactionDueDate?: Date;
  readonly threeDSecure?: ThreeDSecure;
  readonly customParameters?: Readonly<Record<string, string>>;
  readonly risk?: Risk;
  readonly chargebackResultCode?: string;
  readonly standingInstruction?: StandingInstruction;
  readonly recurringMigration?: RecurringMigration;
  readonly registrationId?: string;
  readonly job?: Job;
  readonly registrations?: readonly Registration[];
  readonly limit?: number;
  readonly date?: DateRange;
  readonly paymentTypes?: readonly string[];
  readonly paymentMethods?: readonly string[];
  readonly includeLinkedTransactions?: boolean;
  readonly shortId?: string;
  readonly sortValue?: "SettlementTxDate";
  readonly sortOrder?: "ASC" | "DESC" | "asc" | "desc";
  readonly pageNo?: number;
  readonly customer?: Customer;
  readonly shipping?: Shipping;
  readonly billing?: Billing;
  readonly merchant?: Merchant;
  readonly corporate?: Corporate;
  readonly sender?: Sender;
  readonly recipient?: Recipient;
  readonly cart?: Cart;
  readonly marketPlace?: MarketPlace;
  readonly airline?: Airline;
  readonly giftCard?: GiftCard;
}

export interface Forex {
  readonly amount?: bigint;
  readonly currency?: string;
}

export interface Card {
  readonly holder?: string;
  readonly number?: string;
  readonly expiryMonth?: string;
  readonly expiryYear?: string;
  readonly cvv?: string;
  readonly numberType?: "PAN" | "DPAN";
}

export interface WalletA {
  readonly paymentToken?: string;
  readonly source?: "web" | "app";
  readonly cardNetwork?: string;
  readonly cardType?: string;
}

export interface WalletB {
  readonly paymentToken?: string;
  readonly source?: "web" | "app";
}

export interface WalletC {
  readonly paymentToken?: string;
  readonly source?: "web" | "app";
}

export interface VirtualAccount {
  readonly accountId?: string;
}

export interface TokenAccount {
  readonly number?: string;
  readonly type?: "NETWORK" | "EXTERNAL";
  readonly expiryMonth?: string;
  readonly expiryYear?: string;
  readonly cryptogram?: string;
  readonly dtvc?: string;
}

export interface BankAccount {
  readonly holder?: string;
  readonly bankName?: string;
  readonly number?: string;
  readonly iban?: string;
  readonly bankCode?: string;
  readonly bic?: string;
  readonly country?: string;
  readonly mandate?: BankAccountMandate;
}

export interface BankAccountMandate {
  readonly id?: string;
  readonly dateOfSignature?: Date;
}

export interface ThreeDSecure {
  readonly amount?: bigint;
  readonly currency?: string;
  readonly deviceInfo?: string;
  readonly merchant?: ThreeDSecureMerchant;
  readonly v2?: ThreeDSecureV2;
  readonly channel?: string;
  readonly npa?: boolean;
  readonly decoupled?: boolean;
  readonly threeRIInd?: "RECURRING" | "SPLIT_SHIPMENT" | "DELAYED_SHIPMENT";
  readonly authenticationInd?: "PAYMENT" | "RECURRING" | "INSTALLMENT" | "ADD_CARD" | "MAINTAIN_CARD" | "EMV_ID" | "BILLING_AGREEMENT" | "SPLIT_SHIPMENT" | "_DELAYED_SHIPMENT" | "SPLIT_PAYMENT";
  readonly schemeData?: ThreeDSecureSchemeData;
  readonly eci?: string;
  readonly verificationId?: string;
  readonly authenticationStatus?: "Y" | "A" | "U" | "N";
  readonly dsTransactionId?: string;
  readonly acsTransactionId?: string;
  readonly challengeMandatedIndicator?: "Y" | "N";
  readonly version?: string;
  readonly authType?: string;
  readonly transactionStatusReason?: string;
  readonly challengeIndicator?: string;
  readonly challengeWindowSize?: string;
  readonly exemptionFlag?: string;
}

export interface ThreeDSecureMerchant {
  readonly name?: string;
  readonly url?: string;
  readonly country?: string;
}

export interface ThreeDSecureV2 {
  readonly networkA?: ThreeDSecureV2NetworkA;
  readonly networkB?: ThreeDSecureV2NetworkB;
  readonly networkC?: ThreeDSecureV2NetworkC;
  readonly networkD?: ThreeDSecureV2NetworkD;
  readonly networkE?: ThreeDSecureV2NetworkE;
  readonly networkF?: ThreeDSecureV2NetworkF;
}

export interface ThreeDSecureV2NetworkA {
  readonly requestorId?: string;
  readonly requestorName?: string;
}

export interface ThreeDSecureV2NetworkB {
  readonly requestorId?: string;
  readonly requestorName?: string;
}

export interface ThreeDSecureV2NetworkC {
  readonly requestorId?: string;
  readonly requestorName?: string;
}

export interface ThreeDSecureV2NetworkD {
  readonly requestorId?: string;
  readonly requestorName?: string;
}

export interface ThreeDSecureV2NetworkE {
  readonly requestorId?: string;
  readonly requestorName?: string;
}

export interface ThreeDSecureV2NetworkF {
  readonly requestorId?: string;
  readonly requestorName?: string;
}

export interface ThreeDSecureSchemeData {
  readonly "NF-ITEMSNB"?: string;
  readonly "NF-SCORE_MERCHANT"?: string;
  readonly "NF-USECASE"?: string;
}

export interface Risk {
  readonly channelId?: string;
  readonly serviceId?: string;
  readonly amount?: bigint;
  readonly orderTimestamp?: Date;
  readonly brand?: string;
  readonly parameters?: Readonly<Record<string, string>>;
  readonly merchantWebsite?: string;
  readonly accountToken?: string;
}

export interface StandingInstruction {
  readonly type?: "UNSCHEDULED" | "INSTALLMENT" | "RECURRING";
  readonly recurringType?: "SUBSCRIPTION" | "STANDING_ORDER";
  readonly mode?: "INITIAL" | "REPEATED";
  readonly source?: "CIT" | "MIT";
  readonly initialTransactionId?: string;
  readonly industryPractice?: "INCREMENTAL_AUTH" | "RESUBMISSION" | "REAUTHORIZATION" | "DELAYED_CHARGES" | "NO_SHOW";
  readonly expiry?: Date;
  readonly frequency?: string;
  readonly numberOfInstallments?: string;
}

export interface RecurringMigration {
  readonly paymentType?: "DB" | "CD" | "PA";
  readonly amount?: bigint;
  readonly requestTimestamp?: Date;
  readonly connectorTxId1?: string;
  readonly connectorTxId2?: string;
  readonly connectorTxId3?: string;
}

export interface Job {
  readonly name?: string;
  readonly year?: string;
  readonly month?: string;
  readonly dayOfMonth?: string;
  readonly dayOfWeek?: string;
  readonly hour?: string;
  readonly minute?: string;
  readonly second?: string;
  readonly startDate?: Date;
  readonly endDate?: Date;
  readonly noticeUnit?: "YEAR" | "MONTH" | "WEEK" | "DAY" | "HOUR" | "MINUTE" | "SECOND";
  readonly noticeNumber?: string;
  readonly noticeCallable?: "ANYTIME" | "DURATION_END";
  readonly durationUnit?: "YEAR" | "MONTH" | "WEEK" | "DAY" | "HOUR" | "MINUTE" | "SECOND";
  readonly durationNumber?: string;
  readonly expression?: string;
  readonly timeZone?: string;
}

export interface Registration {
  readonly id?: string;
}

export interface DateRange {
  readonly from?: Date;
  readonly to?: Date;
}

export interface Customer {
  readonly merchantCustomerId?: string;
  readonly givenName?: string;
  readonly middleName?: string;
  readonly surname?: string;
  readonly sex?: "F" | "M";
  readonly birthDate?: Date;
  readonly phone?: string;
  readonly mobile?: string;
  readonly workPhone?: string;
  readonly email?: string;
  readonly companyName?: string;
  readonly identificationDocType?: "IDCARD" | "PASSPORT" | "TAXSTATEMENT";
  readonly identificationDocId?: string;
  readonly ip?: string;
  readonly merchantReference?: string;
  readonly salutation?: "MR" | "MRS" | "MS" | "MX";
  readonly language?: string;
  readonly category?: "INDIVIDUAL" | "COMPANY";
  readonly status?: "NEW" | "EXISTING";
  readonly browserFingerprint?: CustomerBrowserFingerprint;
  readonly browser?: CustomerBrowser;
  readonly app?: CustomerApp;
}

export interface CustomerBrowserFingerprint {
  readonly id?: string;
  readonly value?: string;
}

export interface CustomerBrowser {
  readonly acceptHeader?: string;
  readonly language?: string;
  readonly screenHeight?: string;
  readonly screenWidth?: string;
  readonly timezone?: string;
  readonly userAgent?: string;
  readonly javaEnabled?: boolean;
  readonly screenColorDepth?: string;
  readonly challengeWindow?: string;
  readonly deviceId?: string;
}

export interface CustomerApp {
  readonly deviceId?: string;
}

export interface Shipping {
  readonly customer?: ShippingCustomer;
  readonly street1?: string;
  readonly street2?: string;
  readonly houseNumber1?: string;
  readonly houseNumber2?: string;
  readonly city?: string;
  readonly state?: string;
  readonly postcode?: string;
  readonly country?: string;
  readonly method?: "GROUND" | "CARRIER_DESIGNATED_BY_CUSTOMER" | "ELECTRONIC_DELIVERY" | "EXPEDITED" | "INTERNATIONAL" | "LOWEST_COST" | "MILITARY" | "NEXT_DAY_OVERNIGHT" | "OTHER" | "POINT_PICKUP" | "PUDO" | "SAME_DAY_SERVICE" | "STORE_PICKUP" | "THREE_DAY_SERVICE" | "TWO_DAY_SERVICE";
  readonly cost?: bigint;
  readonly comment?: string;
  readonly expectedDate?: Date;
  readonly logisticsProvider?: string;
  readonly trackingNumber?: string;
  readonly returnTrackingNumber?: string;
  readonly normalized?: string;
  readonly validationStatus?: string;
  readonly warehouse?: string;
  readonly preference?: "GET_FROM_FILE" | "NO_SHIPPING" | "SET_PROVIDED_ADDRESS";
  readonly middleName?: string;
  readonly companyName?: string;
  readonly phone?: string;
  readonly mobile?: string;
  readonly workPhone?: string;
  readonly email?: string;
  readonly type?: "SHIPMENT" | "RETURN";
}

export interface ShippingCustomer {
  readonly merchantCustomerId?: string;
  readonly givenName?: string;
  readonly middleName?: string;
  readonly surname?: string;
  readonly sex?: "F" | "M";
  readonly birthDate?: Date;
  readonly phone?: string;
  readonly mobile?: string;
  readonly workPhone?: string;
  readonly email?: string;
  readonly companyName?: string;
  readonly identificationDocType?: "IDCARD" | "PASSPORT" | "TAXSTATEMENT";
  readonly identificationDocId?: string;
  readonly ip?: string;
  readonly merchantReference?: string;
  readonly salutation?: "MR" | "MRS" | "MS" | "MX";
  readonly language?: string;
  readonly category?: "INDIVIDUAL" | "COMPANY";
  readonly status?: "NEW" | "EXISTING";
  readonly browser?: ShippingCustomerBrowser;
}

export interface ShippingCustomerBrowser {
  readonly acceptHeader?: string;
  readonly language?: string;
  readonly screenHeight?: string;
  readonly screenWidth?: string;
  readonly timezone?: string;
  readonly userAgent?: string;
  readonly javaEnabled?: boolean;
  readonly screenColorDepth?: string;
  readonly challengeWindow?: string;
}

export interface Billing {
  readonly street1?: string;
  readonly street2?: string;
  readonly houseNumber1?: string;
  readonly houseNumber2?: string;
  readonly city?: string;
  readonly state?: string;
  readonly postcode?: string;
  readonly country?: string;
  readonly normalized?: string;
  readonly validationStatus?: string;
}

export interface Merchant {
  readonly billing?: MerchantBilling;
  readonly shipping?: MerchantShipping;
  readonly name?: string;
  readonly mcc?: string;
  readonly street?: string;
  readonly city?: string;
  readonly state?: string;
  readonly countryCode?: string;
  readonly country?: string;
  readonly postcode?: string;
  readonly geographicCoordinates?: string;
  readonly serviceLocationCity?: string;
  readonly serviceLocationState?: string;
  readonly serviceLocationCountryCode?: string;
  readonly serviceLocationPostCode?: string;
  readonly serviceLocationGeographicCoordinates?: string;
  readonly additionalContact?: string;
  readonly phone?: string;
  readonly customerContactPhone?: string;
  readonly websiteId?: string;
  readonly url?: string;
  readonly partnerIdCode?: string;
  readonly isoId?: string;
  readonly payFacId?: string;
  readonly payFacName?: string;
  readonly submerchantId?: string;
  readonly marketplaceId?: string;
  readonly taxId?: string;
  readonly data?: Readonly<Record<string, string>>;
  readonly foreignRetailIndicator?: string;
  readonly legalName?: string;
  readonly app?: MerchantApp;
}

export interface MerchantBilling {
  readonly street1?: string;
  readonly street2?: string;
  readonly houseNumber1?: string;
  readonly houseNumber2?: string;
  readonly city?: string;
  readonly state?: string;
  readonly postcode?: string;
  readonly country?: string;
  readonly normalized?: string;
  readonly validationStatus?: string;
  readonly givenName?: string;
  readonly surname?: string;
  readonly middleName?: string;
  readonly companyName?: string;
  readonly phone?: string;
  readonly workPhone?: string;
  readonly mobile?: string;
  readonly email?: string;
}

export interface MerchantShipping {
  readonly street1?: string;
  readonly street2?: string;
  readonly houseNumber1?: string;
  readonly houseNumber2?: string;
  readonly city?: string;
  readonly state?: string;
  readonly postcode?: string;
  readonly country?: string;
  readonly method?: "GROUND" | "CARRIER_DESIGNATED_BY_CUSTOMER" | "ELECTRONIC_DELIVERY" | "EXPEDITED" | "INTERNATIONAL" | "LOWEST_COST" | "MILITARY" | "NEXT_DAY_OVERNIGHT" | "OTHER" | "POINT_PICKUP" | "PUDO" | "SAME_DAY_SERVICE" | "STORE_PICKUP" | "THREE_DAY_SERVICE" | "TWO_DAY_SERVICE";
  readonly cost?: bigint;
  readonly comment?: string;
  readonly expectedDate?: Date;
  readonly logisticsProvider?: string;
  readonly trackingNumber?: string;
  readonly returnTrackingNumber?: string;
  readonly normalized?: string;
  readonly validationStatus?: string;
  readonly warehouse?: string;
  readonly preference?: "GET_FROM_FILE" | "NO_SHIPPING" | "SET_PROVIDED_ADDRESS";
  readonly middleName?: string;
  readonly companyName?: string;
  readonly phone?: string;
  readonly mobile?: string;
  readonly workPhone?: string;
  readonly email?: string;
  readonly type?: "SHIPMENT" | "RETURN";
}

export interface MerchantApp {
  readonly schemeUrl?: string;
}

export interface Corporate {
  readonly name?: string;
  readonly description?: string;
  readonly street?: string;
  readonly address?: string;
  readonly city?: string;
  readonly state?: string;
  readonly postCode?: string;
  readonly suite?: string;
  readonly postboxNumber?: string;
  readonly purchase?: "Y" | "N";
  readonly phone?: string;
  readonly fax?: string;
  readonly vatId?: string;
}

export interface Sender {
  readonly name?: string;
  readonly givenName?: string;
  readonly middleName?: string;
  readonly surname?: string;
  readonly birthDate?: Date;
  readonly accountNumber?: string;
  readonly street?: string;
  readonly city?: string;
  readonly state?: string;
  readonly country?: string;
  readonly postcode?: string;
  readonly accountNumberType?: "IBAN" | "OTHER" | "RTN_AND_BANK_ACCOUNT" | "BAN_AND_BIC" | "CARD_ACCOUNT";
  readonly sourceOfFunds?: "01" | "02" | "03" | "04" | "05" | "06" | "07" | "08" | "09";
}

export interface Recipient {
  readonly givenName?: string;
  readonly middleName?: string;
  readonly surname?: string;
  readonly birthDate?: Date;
  readonly phone?: string;
  readonly accountNumber?: string;
  readonly street?: string;
  readonly city?: string;
  readonly state?: string;
  readonly country?: string;
  readonly postcode?: string;
  readonly accountNumberType?: "IBAN" | "OTHER" | "RTN_AND_BANK_ACCOUNT" | "EMAIL" | "PHONE_NUMBER" | "BAN_AND_BIC" | "WALLET_ID" | "SOCIAL_NETWORK_ID";
}

export interface Cart {
  readonly items?: readonly CartItem[];
  readonly payments?: readonly CartPayment[];
}

export interface CartItem {
  readonly name?: string;
  readonly merchantItemId?: string;
  readonly quantity?: string;
  readonly type?: "PHYSICAL" | "DIGITAL" | "MIXED" | "ANONYMOUS_DONATION" | "AUTHORITIES_PAYMENT";
  readonly sku?: string;
  readonly currency?: string;
  readonly description?: string;
  readonly commodityCode?: string;
  readonly commodityDescription?: string;
  readonly originalPrice?: string;
  readonly price?: bigint;
  readonly totalAmount?: bigint;
  readonly taxAmount?: bigint;
  readonly totalTaxAmount?: bigint;
  readonly tax?: string;
  readonly taxCategory?: "S" | "AA" | "E" | "Z";
  readonly shipping?: bigint;
  readonly discount?: bigint;
  readonly giftMessage?: string;
  readonly shippingMethod?: string;
  readonly shippingTrackingNumber?: string;
  readonly shippingInstructions?: string;
  readonly quantityUnit?: "COUNT" | "M" | "CM" | "KG" | "G";
  readonly productUrl?: string;
  readonly imageUrl?: string;
  readonly totalDiscountAmount?: bigint;
  readonly productCode?: string;
  readonly partNumber?: string;
  readonly itemNumber?: string;
  readonly vatReferenceNumber?: string;
  readonly sellerId?: string;
  readonly recipient?: CartItemRecipient;
  readonly deliveryDate?: Date;
}

export interface CartItemRecipient {
  readonly salutation?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly middleName?: string;
  readonly apartment?: string;
  readonly street?: string;
  readonly address?: string;
  readonly city?: string;
  readonly state?: string;
  readonly postcode?: string;
  readonly country?: string;
  readonly phone?: string;
  readonly email?: string;
}

export interface CartPayment {
  readonly name?: string;
  readonly type?: "GIFTCARD" | "PROMOTION";
  readonly amount?: bigint;
  readonly currency?: string;
  readonly status?: "pending" | "authorized" | "captured";
  readonly brand?: string;
  readonly primary?: boolean;
}

export interface MarketPlace {
  readonly sellers?: readonly MarketPlaceSeller[];
}

export interface MarketPlaceSeller {
  readonly id?: string;
  readonly amount?: bigint;
}

export interface Airline {
  readonly totalTaxAmount?: bigint;
  readonly totalFeesAmount?: bigint;
  readonly totalFareAmount?: bigint;
  readonly ticketIssueDate?: Date;
  readonly ticketIssueAddress?: string;
  readonly thirdPartyBooking?: string;
  readonly bookingtype?: string;
  readonly ticketDeliveryMethod?: string;
  readonly bookingRefNum?: string;
  readonly agentName?: string;
  readonly agentCode?: string;
  readonly passengers?: readonly AirlinePassenger[];
}

export interface AirlinePassenger {
  readonly type?: string;
  readonly name?: string;
  readonly ticketRestricted?: string;
  readonly ticketNumber?: string;
  readonly status?: string;
  readonly phone?: string;
  readonly frequentFlyerNumber?: string;
  readonly email?: string;
  readonly dob?: string;
  readonly checkDigit?: string;
  readonly residenceCountry?: string;
  readonly legs?: readonly AirlinePassengerLeg[];
}

export interface AirlinePassengerLeg {
  readonly ticketNumber?: string;
  readonly stopOverAllowed?: string;
  readonly restrictions?: string;
  readonly flightNumber?: string;
  readonly fareBasis?: string;
  readonly exchangeTicketNum?: string;
  readonly departureCountry?: string;
  readonly departureAirport?: string;
  readonly airlineName?: string;
  readonly airlineCode?: string;
  readonly departureTime?: string;
  readonly arrivalCountry?: string;
  readonly arrivalAirport?: string;
  readonly arrivalTime?: string;
  readonly couponNumber?: string;
  readonly classOfService?: string;
  readonly carrierCode?: string;
  readonly taxAmount?: bigint;
  readonly feesAmount?: bigint;
  readonly fareAmount?: bigint;
  readonly departureTaxAmount?: bigint;
  readonly departureDate?: Date;
  readonly arrivalDate?: Date;
  readonly timeToDeparture?: string;
}

export interface GiftCard {
  readonly number?: string;
  readonly pin?: string;
  readonly holder?: string;
  readonly message?: string;
  readonly type?: "BIRTHDAY" | "ANNIVERSARY" | "CONGRATULATIONS" | "APRIL_FOOLS_DAY" | "EASTER" | "FATHERS_DAY" | "GRADUATION" | "HOLIDAY" | "SEASONS_GREETINGS" | "PASSOVER" | "KWANZAA" | "HALLOWEEN" | "MOTHERS_DAY" | "NEW_YEARS_DAY" | "BOSSES_DAY" | "ST_PATRICKS_DAY" | "SWEETEST_DAY" | "CHRISTMAS" | "BABY_SHOWER" | "THANKSGIVING" | "OTHER" | "VALENTINES_DAY" | "WEDDING" | "SECRETARYS_DAY" | "CHINESE_NEW_YEAR" | "HANUKKAH" | "CELEBRATE_FALL" | "GRANDPARENTS_DAY" | "INDEPENDENCE_DAY";
}

/** What each endpoint requires, so a validated request of that endpoint has these for sure. */
export interface RequiredOnEndpoint {
  readonly payment: { readonly entityId: string; readonly amount: bigint; readonly currency: string; readonly paymentType: "DB" | "PA" | "CD"; };
  readonly referencing: { readonly entityId: string; readonly paymentType: "CP" | "RV" | "RF"; };
  readonly registration: { readonly entityId: string; };
  readonly registrationPayment: { readonly entityId: string; readonly amount: bigint; readonly currency: string; readonly paymentType: "DB" | "PA" | "CD"; };
  readonly checkout: { readonly entityId: string; };
  readonly checkoutPayment: {};
  readonly query: { readonly entityId: string; };
  readonly schedule: { readonly entityId: string; readonly amount: bigint; readonly currency: string; readonly paymentType: "DB" | "PA"; readonly registrationId: string; };
  readonly reporting: { readonly entityId: string; readonly date: { readonly from: Date; readonly to: Date; }; };
}

export type EndpointRequest<E extends Endpoint = Endpoint> = PaymentRequest & RequiredOnEndpoint[E];
