import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextOf } from '../../../widget/src/dom/options.js';
import { COUNTRY_CODES, countryOptions, preferredCountry } from '../../../widget/src/rules/countries.js';
import { keyTarget } from '../../../widget/src/rules/tab-keys.js';

describe('widget layouts: the tab keys', () => {
  // [key, current, count, rtl, expected]
  const rows: [string, number, number, boolean, number | undefined][] = [
    ['ArrowRight', 0, 4, false, 1],
    ['ArrowRight', 3, 4, false, 0],
    ['ArrowLeft', 0, 4, false, 3],
    ['ArrowRight', 0, 4, true, 3],
    ['ArrowLeft', 0, 4, true, 1],
    ['ArrowDown', 1, 4, false, 2],
    ['ArrowUp', 1, 4, true, 0],
    ['Home', 2, 4, false, 0],
    ['End', 0, 4, false, 3],
    ['Enter', 0, 4, false, undefined],
    ['ArrowRight', -1, 4, false, undefined],
  ];
  for (const [key, current, count, rtl, expected] of rows) {
    it(`${key} from ${current} of ${count}${rtl ? ' (rtl)' : ''} → ${expected}`, () => assert.equal(keyTarget(key, current, count, rtl), expected));
  }
});

describe('widget layouts: the bank country list', () => {
  it('holds each ISO 3166-1 code once, two capitals', () => {
    assert.equal(new Set(COUNTRY_CODES).size, COUNTRY_CODES.length);
    assert.ok(COUNTRY_CODES.length >= 249);
    for (const code of COUNTRY_CODES) assert.match(code, /^[A-Z]{2}$/);
  });
  it('names in the language, sorted by it, the shopper’s country first', () => {
    const german = countryOptions('de', 'AT');
    assert.deepEqual(german[0], { code: 'AT', name: 'Österreich' });
    assert.equal(german.find((option) => option.code === 'DE')?.name, 'Deutschland');
    const rest = german.slice(1).map((option) => option.name);
    assert.deepEqual(rest, [...rest].sort(new Intl.Collator('de').compare));
    assert.equal(countryOptions('ja', undefined).find((option) => option.code === 'DE')?.name, 'ドイツ');
    assert.equal(countryOptions('en', 'ZZ')[0]?.code, 'AF', 'an unknown country changes nothing');
  });
  it('the shopper’s country: the checkout’s, else the locale’s region, else the language’s; a row per case', () => {
    // [checkout's country, wpwlOptions.locale, widget language, expected, why]
    const rows: [unknown, unknown, string, string | undefined, string][] = [
      ['CH', 'de-AT', 'de', 'CH', 'the checkout says where the shopper lives; the language does not'],
      ['ch', undefined, 'en', 'CH', 'a lower-case code counts'],
      [undefined, 'de-AT', 'de', 'AT', 'no checkout country: the locale’s region'],
      [undefined, 'de', 'de', 'DE', 'no region: the language’s country'],
      [undefined, 'ja', 'ja', undefined, 'a language of no one country: the shopper chooses'],
      ['ZZ', 'pt_BR', 'pt', 'BR', 'a code not in the list falls through'],
      ['', 'en-XX', 'en', undefined, 'nothing usable anywhere'],
      [42, 'nl', 'nl', 'NL', 'a wrong type falls through'],
    ];
    for (const [checkout, locale, language, expected, why] of rows) assert.equal(preferredCountry(checkout, locale, language), expected, why);
  });
  it('the known country chosen and first, then every other country once, in the language’s order', () => {
    for (const [language, first] of [['de', 'CH'], ['ja', 'JP'], ['ar', 'EG'], ['en', 'US']] as const) {
      const options = countryOptions(language, first);
      assert.equal(options[0]?.code, first, language);
      assert.equal(options.length, COUNTRY_CODES.length, 'none left out, none twice');
      assert.equal(new Set(options.map((option) => option.code)).size, options.length);
      const rest = options.slice(1).map((option) => option.name);
      assert.deepEqual(rest, [...rest].sort(new Intl.Collator(language).compare), `${language}: the rest in the language’s order`);
    }
    assert.equal(countryOptions('de', 'CH')[0]?.name, 'Schweiz');
  });
});

describe('widget layouts: wpwlOptions.layout', () => {
  const context = (options: Record<string, unknown>) => contextOf(options, 'https://gateway.example/v1/', 'X');
  it('defaults to OPPWA’s forms; anything else unknown too', () => {
    assert.equal(context({}).layout, 'forms');
    assert.equal(context({ layout: 'grid' }).layout, 'forms');
    assert.equal(context({ layout: 'tabs' }).layout, 'tabs');
    assert.equal(context({ layout: 'accordion' }).layout, 'accordion');
  });
  it('the amount on the one button by default, unless turned off or the merchant words it', () => {
    assert.equal(context({}).amountOnButton, false);
    assert.equal(context({ layout: 'tabs' }).amountOnButton, true);
    assert.equal(context({ layout: 'accordion', amountOnButton: false }).amountOnButton, false);
    assert.equal(context({ layout: 'tabs', labels: { submit: 'Buy' } }).amountOnButton, false);
  });
});
