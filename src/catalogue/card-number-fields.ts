import { CARD_NUMBER_MIN_DIGITS, ISSUED_NUMBERS_ONLY } from '../domain/card-numbers-in-text.js';
import type { ParameterRow } from './types.js';

/**
 * Where a card number may appear. Outside the card-number fields, a value holding a card number
 * (domain/card-numbers-in-text.ts: a Luhn-valid run of 13 to 19 digits joined by spaces or dashes,
 * or a number of a known brand's range and length however it is written) is refused with
 * CARD_NUMBER_CODE, so a card number sent in a descriptor, a reference or a cart item is never
 * stored, logged or echoed. The fields below are exempt, or checked from more digits, because they
 * legitimately hold long digit runs; each exemption says why. Phone and identity-document fields
 * are only partly exempt: a number that looks issued is refused there too.
 */

/** "invalid Request/Transaction/Account (must not be present)": account data where none may be. */
export const CARD_NUMBER_CODE = '200.100.404';
export const CARD_NUMBER_MESSAGE = 'must not contain a card number';

export interface CardNumberExemption {
  /** The fields, as the documentation lists them. */
  readonly fields: string;
  readonly applies: (row: ParameterRow) => boolean;
  /**
   * Luhn-valid runs refused from this many digits on (ISSUED_NUMBERS_ONLY: only numbers of a known
   * brand's range and length); undefined: never refused.
   */
  readonly refusedFromDigits?: number;
  /** How the field is checked instead, when its own operation checks it (shown in the docs' table). */
  readonly checkedElsewhere?: string;
  readonly why: string;
}

const named = (pattern: RegExp) => (row: ParameterRow) => pattern.test(row.name);

export const CARD_NUMBER_EXEMPTIONS: readonly CardNumberExemption[] = [
  {
    fields: '`card.number`, `tokenAccount.number`, `bankAccount.number`, `bankAccount.iban`, `sender.accountNumber`, `recipient.accountNumber`, `giftCard.number` and the other secret fields (CVV, PIN, tokens, cryptograms)',
    applies: (row) => row.secret !== undefined,
    why: 'they hold account numbers or secrets by design (a sender account may be a card account, a gift card number is Luhn-valid); they are masked in errors and never echoed',
  },
  {
    fields: '`entityId`, `registrationId`, `registrations[n].id`, `threeDSecure.dsTransactionId`, `threeDSecure.acsTransactionId`',
    applies: named(/^(entityId|registrationId|registrations\[n\]\.id|threeDSecure\.(ds|acs)TransactionId)$/),
    why: 'identifiers the gateway or a directory server made (hex, alphanumeric, UUID): a random id holds a Luhn-valid run of digits now and then',
  },
  {
    fields: '`standingInstruction.initialTransactionId`, `recurringMigration.connectorTxId1` to `3`',
    applies: named(/^(standingInstruction\.initialTransactionId|recurringMigration\.connectorTxId[123])$/),
    why: 'transaction ids of the card network or acquirer: a Visa transaction id has 15 digits',
  },
  {
    fields: '`shipping.trackingNumber`, `shipping.returnTrackingNumber` (and `merchant.shipping.*`), `cart.items[n].shippingTrackingNumber`',
    applies: named(/(^|\.)(trackingNumber|returnTrackingNumber|shippingTrackingNumber)$/),
    why: 'carriers\' tracking numbers are 12 to 22 digits, often printed in groups of four',
  },
  {
    fields: '`airline.passengers[n].ticketNumber`, `airline.passengers[n].legs[n].ticketNumber`, `airline.passengers[n].legs[n].exchangeTicketNum`',
    applies: named(/\.(ticketNumber|exchangeTicketNum)$/),
    why: 'an airline ticket number has 13 digits (airline code and serial)',
  },
  {
    fields: '`customer.identificationDocId`, `shipping.customer.identificationDocId`',
    applies: named(/(^|\.)identificationDocId$/),
    refusedFromDigits: ISSUED_NUMBERS_ONLY,
    why: 'national identity numbers run to 18 digits (China\'s resident identity number; South Africa\'s 13 digits are Luhn-valid by design), so only a number of a card brand\'s range and issued length (16 digits of VISA, 15 of AMEX …) is refused',
  },
  {
    fields: '`job.expression`',
    applies: named(/^job\.expression$/),
    checkedElsewhere: 'a card number within one field of the expression (its fields are checked one by one)',
    why: 'the fields of a cron expression are separated by spaces, and a one-time schedule\'s second, minute, hour, day, month and year read together can form a Luhn-valid number of a card brand\'s range (`0 30 22 18 27 11 ? 2026`)',
  },
  {
    fields: 'phone and fax numbers (`customer.phone`, `mobile`, `workPhone`, `corporate.fax`, … wherever they appear)',
    applies: named(/(^|\.)(phone|mobile|workPhone|fax|customerContactPhone)$/),
    refusedFromDigits: 16,
    why: 'an international (E.164) number has at most 15 digits, and one in ten of those is Luhn-valid; 16 to 19 digits are no phone number, nor are 14 or 15 digits in the ranges of DINERS or AMEX (no country code of those ranges has numbers that long), so those are refused too',
  },
];

/** The fewest digits of a run refused in the row's values; undefined when the row is exempt. */
export function cardNumberMinDigits(row: ParameterRow): number | undefined {
  const exemption = CARD_NUMBER_EXEMPTIONS.find((entry) => entry.applies(row));
  return exemption ? exemption.refusedFromDigits : CARD_NUMBER_MIN_DIGITS;
}
