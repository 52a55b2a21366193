import { defineRows, sameFormat } from '../define.js';
import { countryAlpha2, digits, multilineText, oneOf, pattern, text } from '../formats.js';
import { INITIAL_PAYMENTS, optional } from '../use.js';
import { mapKey } from './custom-and-risk.js';
import type { ParameterRow } from '../types.js';

/** Party and order data: merchant (acceptor) and corporate. */

const coordinates = () =>
  pattern('^[0-9+., -]{1,20}$', { notation: 'NS20, latitude and longitude', min: 1, max: 20, sample: '48.1374, 11.5755', bad: 'north' });

const merchant = defineRows({ section: 'Merchant (acceptor)', use: optional(INITIAL_PAYMENTS) }, [
  ['merchant.name', text(100), { sample: 'Muster Shop*Books' }],
  ['merchant.mcc', text(4), { sample: '5942' }],
  ['merchant.street', text(100), { sample: 'Kaufingerstr. 1' }],
  ['merchant.city', text(100), { sample: 'Munich' }],
  ['merchant.state', text(50), { sample: 'BY' }],
  ['merchant.countryCode', digits(3, 3, 'N3, ISO 3166-1 numeric', '276')],
  ['merchant.country', countryAlpha2(), { code: '100.800.501' }],
  ['merchant.postcode', text(16), { sample: '80331' }],
  ['merchant.geographicCoordinates', coordinates()],
  ['merchant.serviceLocationCity', text(100), { sample: 'Munich' }],
  ['merchant.serviceLocationState', text(50), { sample: 'BY' }],
  ['merchant.serviceLocationCountryCode', text(3), { sample: 'DE' }],
  ['merchant.serviceLocationPostCode', text(16), { sample: '80331' }],
  ['merchant.serviceLocationGeographicCoordinates', coordinates()],
  ['merchant.additionalContact', text(255)],
  ['merchant.phone', text(25), { sample: '+49 89 1234567' }],
  ['merchant.customerContactPhone', text(25), { sample: '+49 89 1234569' }],
  ['merchant.websiteId', text(255)],
  ['merchant.url', text(255), { sample: 'https://shop.example.com' }],
  ['merchant.partnerIdCode', text(60)],
  ['merchant.isoId', text(255)],
  ...sameFormat('merchant.', ['payFacId', 'payFacName'], text(255)),
  ['merchant.submerchantId', text(100)],
  ['merchant.marketplaceId', text(255)],
  ['merchant.taxId', text(60), { sample: 'DE123456789' }],
  ['merchant.data[key]', multilineText(2048), { keyFormat: mapKey('loyaltyProgram') }],
  ['merchant.foreignRetailIndicator', text(25)],
  ['merchant.legalName', text(100), { sample: 'Muster Shop GmbH' }],
  ['merchant.app.schemeUrl', text(255), { sample: 'mustershop://payment' }],
]);

const corporatePhone = () => digits(25, 1, 'N25 digits', '498912345670');

const corporate = defineRows({ section: 'Corporate', use: optional(INITIAL_PAYMENTS) }, [
  ['corporate.name', text(30), { sample: 'Jones Ltd' }],
  ['corporate.description', multilineText(160)],
  ['corporate.street', text(100), { sample: 'Main Street 1' }],
  ['corporate.address', text(100), { sample: 'Floor 3' }],
  ['corporate.city', text(80), { sample: 'London' }],
  ['corporate.state', text(50), { sample: 'LND' }],
  ['corporate.postCode', text(16), { sample: 'SW1A 1AA' }],
  ['corporate.suite', text(30), { sample: 'Suite 4' }],
  ['corporate.postboxNumber', text(15), { sample: 'PO 17' }],
  ['corporate.purchase', oneOf(['Y', 'N'])],
  ['corporate.phone', corporatePhone()],
  ['corporate.fax', corporatePhone()],
  ['corporate.vatId', text(255), { sample: 'GB123456789' }],
]);

export const merchantRows: readonly ParameterRow[] = [...merchant, ...corporate];
