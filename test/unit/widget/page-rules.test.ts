import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelsOf } from '../../../widget/src/i18n/index.js';
import { LABEL_KEYS } from '../../../widget/src/i18n/keys.js';
import { returnUrl } from '../../../widget/src/rules/action-url.js';
import { formsOf, parseBrands } from '../../../widget/src/rules/brands.js';
import { directionOf, fillLabel, htmlLang, mergeLabels, regionOf, resolveLocale, WIDGET_LOCALES } from '../../../widget/src/rules/locale.js';
import { outcomeOf } from '../../../widget/src/rules/outcome.js';
import { isPlausibleIban, normalizeIban } from '../../../widget/src/rules/iban.js';
import { isValidIban } from '../../../src/domain/bank.js';

const SPEC_LOCALES = 'en, de, fr, es, it, nl, dk, fi, se, tr, ja, sl, pt, pl, cz, hu, bg, ro, ru, cn, gr, no, sk, ar, ko'.split(', ');

describe('widget: locales', () => {
  it('knows exactly the 25 languages of the specification', () => assert.deepEqual([...WIDGET_LOCALES].sort(), [...SPEC_LOCALES].sort()));
  for (const locale of SPEC_LOCALES) {
    it(`${locale}: resolves to itself, its region form too, and has every text`, () => {
      assert.equal(resolveLocale(locale), locale);
      assert.equal(resolveLocale(`${locale}-XX`), locale);
      assert.equal(resolveLocale(locale.toUpperCase()), locale);
      const labels = labelsOf(resolveLocale(locale));
      for (const key of LABEL_KEYS) assert.ok(labels[key]?.trim(), `${locale} has ${key}`);
      if (locale !== 'en') assert.notEqual(labels.submit, labelsOf('en').submit, `${locale} translates the pay button`);
    });
  }
  const cases: [requested: unknown, locale: string][] = [
    ['de-AT', 'de'],
    ['de_CH', 'de'],
    [' pt-BR ', 'pt'],
    ['da', 'dk'],
    ['sv-SE', 'se'],
    ['cs', 'cz'],
    ['zh-CN', 'cn'],
    ['el', 'gr'],
    ['nb-NO', 'no'],
    ['xx', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    [42, 'en'],
  ];
  for (const [requested, locale] of cases) it(`${JSON.stringify(requested)} → ${locale}`, () => assert.equal(resolveLocale(requested), locale));
  it('regions, lang= and direction', () => {
    assert.equal(regionOf('de-AT'), 'AT');
    assert.equal(regionOf('de'), undefined);
    assert.equal(htmlLang('dk'), 'da');
    assert.equal(htmlLang('de'), 'de');
    assert.equal(directionOf('ar'), 'rtl');
    assert.equal(directionOf('de'), 'ltr');
  });
});

describe('widget: label merging', () => {
  const base = labelsOf('en');
  const cases: [name: string, overrides: unknown[], key: keyof typeof base, expected: string][] = [
    ['a label is replaced', [{ submit: 'Buy' }], 'submit', 'Buy'],
    ['errorMessages apply too', [{}, { cvvError: 'Bad code' }], 'cvvError', 'Bad code'],
    ['the later override wins', [{ submit: 'A' }, { submit: 'B' }], 'submit', 'B'],
    ['an unknown key is ignored', [{ nonsense: 'x' }], 'submit', base.submit],
    ['a non-string is ignored', [{ submit: 42 }], 'submit', base.submit],
    ['a blank text is ignored', [{ submit: '  ' }], 'submit', base.submit],
    ['a non-object is ignored', ['submit', null, undefined], 'submit', base.submit],
  ];
  for (const [name, overrides, key, expected] of cases) it(name, () => assert.equal(mergeLabels(base, ...overrides)[key], expected));
  it('fills {brand}', () => assert.equal(fillLabel('To {brand} now {other}', { brand: 'PayPal' }), 'To PayPal now {other}'));
});

describe('widget: the return address', () => {
  const id = 'ABCDEF0123456789ABCDEF0123456789.uat01-vm-tx01';
  const tail = `id=${id}&resourcePath=%2Fv1%2Fcheckouts%2F${id}%2Fpayment`;
  const cases: [action: string, expected: string][] = [
    ['https://shop.example/result', `https://shop.example/result?${tail}`],
    ['https://shop.example/result?order=42', `https://shop.example/result?order=42&${tail}`],
    ['https://shop.example/result?', `https://shop.example/result?${tail}`],
    ['https://shop.example/result?a=1&', `https://shop.example/result?a=1&${tail}`],
    ['https://shop.example/result#top', `https://shop.example/result?${tail}#top`],
    ['https://shop.example/r?x=1#top', `https://shop.example/r?x=1&${tail}#top`],
  ];
  for (const [action, expected] of cases) it(action, () => assert.equal(returnUrl(action, id), expected));
});

describe('widget: what an answer means', () => {
  const cases: [name: string, status: number, body: Record<string, unknown> | undefined, kind: string][] = [
    ['approved', 200, { id: 'p1', result: { code: '000.100.110' } }, 'return'],
    ['declined (a payment exists)', 400, { id: 'p1', result: { code: '800.100.100' } }, 'return'],
    ['pending without redirect', 200, { id: 'p1', result: { code: '000.200.000' } }, 'return'],
    ['3-D Secure', 200, { id: 'p1', result: { code: '000.200.000' }, redirect: { url: 'https://gw/acs', method: 'POST', parameters: [{ name: 'creq', value: 'x' }] } }, 'redirect'],
    ['a redirect that is not http(s) is not followed', 200, { id: 'p1', result: { code: '000.200.000' }, redirect: { url: 'javascript:alert(1)' } }, 'return'],
    ['validation', 400, { result: { code: '100.100.101' }, parameterErrors: [{ name: 'card.number', message: 'invalid' }] }, 'field-errors'],
    ['expired checkout', 400, { result: { code: '200.300.404' } }, 'expired'],
    ['expired checkout naming its id', 400, { result: { code: '200.300.404' }, parameterErrors: [{ name: 'id', message: 'no checkout with this id, or it expired' }] }, 'expired'],
    ['missing parameters under 200.300.404', 400, { result: { code: '200.300.404', parameterErrors: [{ name: 'customer.browser.language', message: 'is required' }] } }, 'field-errors'],
    ['a gone checkout as the gateway answers it', 400, { result: { code: '200.300.404', parameterErrors: [{ name: 'id', message: 'no checkout with this id, or it expired' }] } }, 'expired'],
    ['a refused SHOPPER_ rule as the gateway answers it', 400, { result: { code: '200.300.404', parameterErrors: [{ name: 'customParameters[x]', message: 'name must start with SHOPPER_' }] } }, 'field-errors'],
    ['throttled', 429, { result: { code: '800.120.100' } }, 'failed'],
    ['network failure', 0, undefined, 'failed'],
  ];
  for (const [name, status, body, kind] of cases) it(`${name} → ${kind}`, () => assert.equal(outcomeOf(status, body).kind, kind));
  it('a redirect keeps its method and parameters', () => {
    const outcome = outcomeOf(200, { redirect: { url: 'https://gw/acs', method: 'post', parameters: [{ name: 'creq', value: 'x' }, { value: 'nameless' }] } });
    assert.deepEqual(outcome, { kind: 'redirect', redirect: { url: 'https://gw/acs', method: 'POST', parameters: [{ name: 'creq', value: 'x' }] } });
  });
});

describe('widget: forms per data-brands', () => {
  it('parses the attribute', () => assert.deepEqual(parseBrands(' visa  MASTER,PAYPAL VISA <x> '), ['VISA', 'MASTER', 'PAYPAL']));
  it('one card form where the first card brand stands, then the others in order', () => {
    const forms = formsOf(['PAYPAL', 'VISA', 'SOFORTUEBERWEISUNG', 'MASTER', 'DIRECTDEBIT_SEPA']);
    assert.deepEqual(forms.map((form) => (form.kind === 'card' ? `card:${form.brands.join('+')}` : form.brand)), ['PAYPAL', 'card:VISA+MASTER', 'SOFORTUEBERWEISUNG', 'DIRECTDEBIT_SEPA']);
  });
  it('bank fields: SEPA asks holder, IBAN, BIC; Sofort the country; PayPal nothing', () => {
    const fieldsOf = (brand: string) => {
      const form = formsOf([brand])[0]!;
      return form.kind === 'bank' ? form.fields.map((field) => field.name) : [];
    };
    assert.deepEqual(fieldsOf('DIRECTDEBIT_SEPA'), ['bankAccount.holder', 'bankAccount.iban', 'bankAccount.bic']);
    assert.deepEqual(fieldsOf('SOFORTUEBERWEISUNG'), ['bankAccount.country']);
    assert.deepEqual(fieldsOf('PAYPAL'), []);
  });
});

describe('widget: the IBAN pre-check agrees with the gateway on these', () => {
  const cases: [iban: string, plausible: boolean][] = [
    ['DE89 3704 0044 0532 0130 00', true],
    ['de89370400440532013000', true],
    ['GB82 WEST 1234 5698 7654 32', true],
    ['NL91ABNA0417164300', true],
    ['DE14940593100000012346', true],
    ['DE89 3704 0044 0532 0130 01', false],
    ['DE8937040044', false],
    ['XX', false],
    ['', false],
  ];
  for (const [iban, plausible] of cases) {
    it(`"${iban}" → ${plausible}`, () => {
      assert.equal(isPlausibleIban(iban), plausible);
      if (plausible) assert.equal(isValidIban(normalizeIban(iban)), true, 'the gateway agrees');
    });
  }
});
