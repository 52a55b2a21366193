import { DEFAULT_CODE } from '../define.js';
import { violation, type ConditionalRule, type RuleContext, type RuleViolation } from './types.js';

/** Customer and address rules, applied to each structure that shares the fields. */

export const CUSTOMER_PREFIXES = ['customer.', 'shipping.customer.'] as const;
export const ADDRESS_PREFIXES = ['billing.', 'shipping.', 'merchant.billing.', 'merchant.shipping.'] as const;

/**
 * Device data describes the shopper's browser or app, not the person: the widget and 3D Secure v2
 * send it on their own, so it does not make the names mandatory.
 */
function isDeviceData(name: string, prefix: string): boolean {
  const rest = name.slice(prefix.length);
  return rest.startsWith('browser.') || rest.startsWith('browserFingerprint.') || rest.startsWith('app.') || rest === 'ip';
}

function namesRequired(context: RuleContext, prefix: string): RuleViolation[] {
  const personal = context.fieldsUnder(prefix).filter((field) => !isDeviceData(field.name, prefix));
  const found: RuleViolation[] = [];
  for (const [field, code] of [['givenName', '100.700.200'], ['surname', '100.700.100']] as const) {
    const name = `${prefix}${field}`;
    const other = personal.find((sent) => sent.name !== name);
    if (other && !context.has(name)) found.push(violation(name, code, `is required when ${other.name} is sent`));
  }
  return found;
}

export const customerNamesRequired: ConditionalRule = {
  id: 'customerNamesRequired',
  description:
    'customer.givenName and customer.surname are required when any other customer parameter is sent (device data — browser, browserFingerprint, app, ip — excepted); the same for shipping.customer.',
  codes: ['100.700.200', '100.700.100'],
  check: (context) => CUSTOMER_PREFIXES.flatMap((prefix) => namesRequired(context, prefix)),
};

export const identificationDocPair: ConditionalRule = {
  id: 'identificationDocPair',
  description: 'identificationDocType and identificationDocId of customer and shipping.customer are sent together.',
  codes: ['100.700.800', '100.700.801'],
  check(context) {
    return CUSTOMER_PREFIXES.flatMap((prefix) => {
      const type = `${prefix}identificationDocType`;
      const id = `${prefix}identificationDocId`;
      if (context.has(type) && !context.has(id)) return [violation(id, '100.700.801', `is required with ${type}`)];
      if (context.has(id) && !context.has(type)) return [violation(type, '100.700.800', `is required with ${id}`)];
      return [];
    });
  },
};

export const houseNumber2NeedsHouseNumber1: ConditionalRule = {
  id: 'houseNumber2NeedsHouseNumber1',
  description: 'houseNumber2 requires houseNumber1, in billing, shipping, merchant.billing and merchant.shipping.',
  codes: [DEFAULT_CODE],
  check(context) {
    return ADDRESS_PREFIXES.filter((prefix) => context.has(`${prefix}houseNumber2`) && !context.has(`${prefix}houseNumber1`)).map(
      (prefix) => violation(`${prefix}houseNumber1`, DEFAULT_CODE, `is required with ${prefix}houseNumber2`),
    );
  },
};

const DIGITS_ONLY = /^[0-9\s]+$/;

export const streetNotDigitsOnly: ConditionalRule = {
  id: 'streetNotDigitsOnly',
  description: 'street1 and street2 together do not consist of digits only (billing, shipping, merchant.billing, merchant.shipping).',
  codes: ['100.800.102'],
  check(context) {
    const found: RuleViolation[] = [];
    for (const prefix of ADDRESS_PREFIXES) {
      const street1 = context.value(`${prefix}street1`);
      const street2 = context.value(`${prefix}street2`);
      if (street1 === undefined && street2 === undefined) continue;
      if (!DIGITS_ONLY.test(`${street1 ?? ''}${street2 ?? ''}`)) continue;
      const name = street1 === undefined ? `${prefix}street2` : `${prefix}street1`;
      found.push(violation(name, '100.800.102', `must not consist of digits only together with ${prefix}street2`));
    }
    return found;
  },
};
