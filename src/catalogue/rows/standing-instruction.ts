import { defineRows, sameFormat } from '../define.js';
import { decimal, digits, oneOf, text } from '../formats.js';
import { date, timestamp } from '../formats-time.js';
import { conditional, optional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Core: card on file (standing instruction) and the deprecated recurring migration. */

const standingInstruction = defineRows(
  { section: 'Card on file (standing instruction)', use: conditional(['payment', 'registration', 'registrationPayment', 'checkout', 'schedule']) },
  [
    ['standingInstruction.type', oneOf(['UNSCHEDULED', 'INSTALLMENT', 'RECURRING'])],
    ['standingInstruction.recurringType', oneOf(['SUBSCRIPTION', 'STANDING_ORDER'])],
    ['standingInstruction.mode', oneOf(['INITIAL', 'REPEATED']), { code: '100.900.500' }],
    ['standingInstruction.source', oneOf(['CIT', 'MIT'])],
    ['standingInstruction.initialTransactionId', text(255, 1, 'AN or N, acquirer dependent (255 assumed)'), { sample: '123456789012345' }],
    ['standingInstruction.industryPractice', oneOf(['INCREMENTAL_AUTH', 'RESUBMISSION', 'REAUTHORIZATION', 'DELAYED_CHARGES', 'NO_SHOW'])],
    ['standingInstruction.expiry', date({ sample: '2035-12-31' })],
    ['standingInstruction.frequency', digits(4, 1, 'N4', '0030')],
    ['standingInstruction.numberOfInstallments', digits(3, 1, 'N3', '12')],
  ],
);

const recurringMigration = defineRows({ section: 'Tokenization: recurring migration (deprecated)', use: conditional(['registration']) }, [
  ['recurringMigration.paymentType', oneOf(['DB', 'CD', 'PA']), { requiredWithin: 'recurringMigration.', code: '100.500.201' }],
  ['recurringMigration.amount', decimal(8), { use: optional(['registration']), code: '100.550.303' }],
  ['recurringMigration.requestTimestamp', timestamp()],
  ...sameFormat('recurringMigration.', ['connectorTxId1', 'connectorTxId2', 'connectorTxId3'], text(128), { sample: 'ACQ-REF-0001' }),
]);

export const standingInstructionRows: readonly ParameterRow[] = [...standingInstruction, ...recurringMigration];
