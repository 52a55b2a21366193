import { defineRows } from '../define.js';
import { pattern } from '../formats.js';
import { optional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Checkouts: the stored cards a checkout offers, and the one the shopper picked in the widget. */

const REGISTRATION_ID = pattern('^[a-zA-Z0-9]{32}$', { notation: '32 characters a-z A-Z 0-9', min: 32, max: 32, sample: '8a82944a4cc25ebf014cc2c782423202', bad: '8a82944a-4cc2-5ebf' });

const storedCards = defineRows({ section: 'Checkouts and the widget', use: optional(['checkout']), echo: false, code: '100.150.101' }, [
  ['registrations[n].id', REGISTRATION_ID, {
    use: optional(['checkout']),
    description: 'A registration of the entity the widget offers as a stored card (up to 10, n from 0).',
  }],
  ['registrationId', REGISTRATION_ID, {
    use: optional(['checkoutPayment']),
    description: "The stored card the shopper picked: one of the checkout's registrations[n].id.",
  }],
]);

export const checkoutRows: readonly ParameterRow[] = [...storedCards];
