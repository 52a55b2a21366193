import { defineRows } from '../define.js';
import { bool, chars, currency, decimal, oneOf, pattern, text } from '../formats.js';
import { url } from '../formats-contact.js';
import { INITIAL_PAYMENTS, WRITE_ENDPOINTS, combine, conditional, optional, required } from '../use.js';
import type { Endpoint, ParameterRow } from '../types.js';

/** Core: basic payment request parameters, request controls, forex. */

const ALL_BUT_WIDGET: readonly Endpoint[] = ['payment', 'referencing', 'registration', 'registrationPayment', 'checkout', 'query', 'schedule', 'reporting'];
const MONEY_MOVING: readonly Endpoint[] = ['payment', 'registrationPayment', 'schedule'];
/** A checkout that only registers an account (createRegistration=true, no paymentType) moves no money: the rule checkoutPaymentData decides. */
const CHECKOUT: readonly Endpoint[] = ['checkout'];
const WITH_PAYMENT_TEXTS: readonly Endpoint[] = ['payment', 'referencing', 'registrationPayment', 'checkout'];
const ASYNC_RETURN: readonly Endpoint[] = ['payment', 'registration', 'registrationPayment'];

const requestControls = defineRows({ section: 'Request controls', use: optional(WRITE_ENDPOINTS), echo: false }, [
  ['entityId', pattern('^[a-f0-9]{32}$', { notation: 'AN32, 32 characters a-f 0-9', min: 32, max: 32, sample: '8a8294174b7ecb28014b9699220015ca', bad: '8A8294174B7ECB28014B9699220015CA' }), {
    use: required(ALL_BUT_WIDGET),
    description: 'Channel or merchant entity; the widget post is tied to its checkout instead.',
  }],
  ['testMode', oneOf(['EXTERNAL', 'INTERNAL']), {
    use: optional(['payment', 'referencing', 'registration', 'registrationPayment', 'checkout', 'schedule']),
    description: 'Test system only; default INTERNAL. The live system declines it with 600.200.701.',
  }],
  ['shopperResultUrl', url(), {
    use: combine(conditional(ASYNC_RETURN), optional(['checkout', 'checkoutPayment'])),
    code: '100.370.102',
    missingCode: '100.370.101',
    description: 'Receives the shopper after an asynchronous payment.',
  }],
  ['notificationUrl', url(), { use: optional([...ASYNC_RETURN, 'checkout']), description: 'Deprecated; webhooks replace it.' }],
  ['createRegistration', bool(), { use: optional(['payment', 'checkout', 'checkoutPayment']) }],
  ['overrideHolder', bool(), { use: optional(['checkout', 'registrationPayment']) }],
  ['integrity', bool(), { use: optional(['checkout']), description: 'Return the subresource-integrity hash of the widget script.' }],
]);

const amounts = defineRows({ section: 'Basic payment request parameters', use: optional(INITIAL_PAYMENTS), code: '100.550.303' }, [
  ['amount', decimal(10), {
    use: combine(required(MONEY_MOVING), conditional(['referencing', ...CHECKOUT])),
    missingCode: '100.550.300',
    description: 'Required for CP and RF; already contains taxAmount and shipping.cost.',
  }],
  ['taxAmount', decimal(10), { use: conditional(WITH_PAYMENT_TEXTS) }],
  ['discountAmount', decimal(10)],
  ['currency', currency(), {
    use: combine(required(MONEY_MOVING), conditional(['referencing', ...CHECKOUT]), optional(['reporting'])),
    code: '100.550.401',
    missingCode: '100.550.400',
  }],
]);

const PAYMENT_TYPE = { section: 'Basic payment request parameters', code: '100.500.201' } as const;

/** One row per endpoint family: each admits its own payment types. */
const paymentTypes = [
  ...defineRows({ ...PAYMENT_TYPE, use: required(['payment', 'registrationPayment']) }, [['paymentType', oneOf(['DB', 'PA', 'CD'])]]),
  ...defineRows({ ...PAYMENT_TYPE, use: required(['schedule']) }, [['paymentType', oneOf(['DB', 'PA'])]]),
  ...defineRows({ ...PAYMENT_TYPE, use: conditional(CHECKOUT) }, [['paymentType', oneOf(['DB', 'PA'])]]),
  ...defineRows({ ...PAYMENT_TYPE, use: required(['referencing']) }, [['paymentType', oneOf(['CP', 'RV', 'RF'])]]),
];

const brandKey = chars('a-zA-Z0-9_', 32, 1, 'AN32, a-z A-Z 0-9 _, 1 to 32', 'VISA');

const basics = defineRows({ section: 'Basic payment request parameters', use: optional(INITIAL_PAYMENTS) }, [
  ['paymentBrand', brandKey, {
    use: combine(conditional(['payment', 'registration', 'checkoutPayment']), optional(['registrationPayment', 'checkout'])),
    code: '100.100.501',
    missingCode: '100.100.500',
    description: 'Optional when the brand is detectable from card.number.',
  }],
  ['overridePaymentType[brand]', oneOf(['DB', 'PA']), {
    use: optional(['checkout']),
    keyFormat: brandKey,
    echo: false,
    description: 'Per-brand payment type; accepted only when a checkout is created.',
  }],
  ['descriptor', text(127), {
    use: optional([...WITH_PAYMENT_TEXTS, 'schedule', 'registration']),
    description: 'On a registration (sent by OPPWA clients, docs/compatibility.md) it is accepted and echoed; no money moves, so it reaches no statement.',
  }],
  ['recurringType', oneOf(['INITIAL', 'REPEATED']), {
    use: optional(['payment', 'registrationPayment', 'checkout']),
    description: 'Not in the specification; the older form of standingInstruction.mode that OPPWA clients still send (docs/compatibility.md). Accepted and echoed; the standing-instruction rules read standingInstruction.mode only.',
  }],
  ['merchantTransactionId', text(255, 8), {
    use: conditional(['payment', 'referencing', 'registration', 'registrationPayment', 'checkout', 'schedule']),
    sample: 'order-2034-000017',
  }],
  ['merchantInvoiceId', text(255, 8), { use: optional(WITH_PAYMENT_TEXTS), sample: 'invoice-2034-17' }],
  ['merchantMemo', text(255, 8), { use: optional(WITH_PAYMENT_TEXTS), sample: 'memo for reporting' }],
  ['transactionCategory', oneOf(['EC', 'MO', 'TO', 'PO', 'PM', 'MOTO'])],
  ['sequence', chars('A-Za-z0-9_', 32, 1, 'AN32; FINAL marks the last of a series', 'FINAL'), { use: optional(['referencing']) }],
  ['numberOfCaptures', pattern('^([1-9]|[1-8][0-9]|9[0-8])$', { notation: 'N2, 1 to 98', min: 1, max: 2, sample: '3', bad: '99', kind: 'integer' })],
  ['promotionCode', chars('a-zA-Z0-9', 15, 0, 'AN15, a-z A-Z 0-9, 0 to 15', 'SPRING2034')],
  ['locale', text(10, 1, 'AN10, language-COUNTRY'), { sample: 'de-DE' }],
  ['transactionLinkId', text(35)],
  ['transactionPurposeCode', text(12)],
  ['integrationType', text(10)],
  ['transactionBai', text(2), { sample: 'PP' }],
  ['transactionTti', text(3), { sample: 'PP' }],
  ['transactionProcessingCode', oneOf(['PURCHASE', 'FUNDING', 'PAYMENT'])],
]);

const forex = defineRows({ section: 'Forex', use: conditional(INITIAL_PAYMENTS) }, [
  ['forex.amount', decimal(10), { code: '100.550.303' }],
  ['forex.currency', currency(), { code: '100.550.401' }],
]);

export const basicRows: readonly ParameterRow[] = [...requestControls, ...amounts, ...paymentTypes, ...basics, ...forex];

