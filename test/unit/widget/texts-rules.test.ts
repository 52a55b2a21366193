import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextOf, withTexts } from '../../../widget/src/dom/options.js';
import { DECLINE_KEYS, DECLINE_TEXTS } from '../../../widget/src/i18n/decline-texts.js';
import { ENGLISH_TEXTS } from '../../../widget/src/i18n/english.js';
import { labelsOf, textsByLocale } from '../../../widget/src/i18n/index.js';
import { LABEL_KEYS } from '../../../widget/src/i18n/keys.js';
import { textsOfAnswer, textsUrl, WIDGET_LOCALES, type WidgetLocale } from '../../../widget/src/rules/locale.js';

const BASE = 'https://gateway.example/v1/';

describe('widget: the texts the script carries and the ones it fetches', () => {
  it('carries exactly the English texts of the catalogue, every key of them', () => {
    assert.deepEqual(ENGLISH_TEXTS, labelsOf('en'));
    for (const key of [...LABEL_KEYS, ...DECLINE_KEYS]) assert.ok(ENGLISH_TEXTS[key]?.trim(), key);
  });

  it('has every language in the payload the build writes, each with every key', () => {
    const texts = textsByLocale();
    assert.deepEqual(Object.keys(texts), [...WIDGET_LOCALES]);
    for (const locale of WIDGET_LOCALES) {
      assert.deepEqual(texts[locale], labelsOf(locale), locale);
      assert.deepEqual(Object.keys(texts[locale]).sort(), [...LABEL_KEYS, ...DECLINE_KEYS].sort(), locale);
    }
  });

  const urls: [locale: WidgetLocale, version: string, url: string | undefined][] = [
    ['en', 'abc', undefined],
    ['de', 'abc', `${BASE}widget/texts/de?v=abc`],
    ['ja', '', `${BASE}widget/texts/ja`],
    ['ar', 'a b', `${BASE}widget/texts/ar?v=a%20b`],
  ];
  for (const [locale, version, url] of urls) {
    it(`asks for ${locale} (version '${version}') at ${url ?? 'no address: English is in the script'}`, () => assert.equal(textsUrl(BASE, locale, version), url));
  }

  const answers: [name: string, body: unknown, texts: unknown][] = [
    ['its own language', { locale: 'de', labels: { submit: 'Jetzt bezahlen' } }, { submit: 'Jetzt bezahlen' }],
    ["another language's", { locale: 'fr', labels: { submit: 'Payer' } }, undefined],
    ['no labels', { locale: 'de' }, undefined],
    ['labels that are not an object', { locale: 'de', labels: 'Jetzt bezahlen' }, undefined],
    ['null labels', { locale: 'de', labels: null }, undefined],
    ['no object', 'de', undefined],
    ['null', null, undefined],
  ];
  for (const [name, body, texts] of answers) {
    it(`takes from an answer with ${name}: ${JSON.stringify(texts)}`, () => assert.deepEqual(textsOfAnswer(body, 'de'), texts));
  }
});

describe('widget: the context in the shopper language', () => {
  const german = labelsOf('de');

  it('is English until the texts arrive, and stays English without them', () => {
    const context = contextOf({ locale: 'de' }, BASE, 'c1');
    assert.equal(context.locale, 'de');
    assert.deepEqual(context.labels, ENGLISH_TEXTS);
    assert.equal(withTexts(context, { locale: 'de' }, undefined), context);
  });

  it("speaks the fetched language, with English where the answer lacks a text or has a wrong one", () => {
    const options = { locale: 'de' };
    const context = withTexts(contextOf(options, BASE, 'c1'), options, german);
    assert.deepEqual(context.labels, german);
    const partial = withTexts(contextOf(options, BASE, 'c1'), options, { submit: 'Jetzt bezahlen', cvv: 7, declined: '  ', unknownKey: 'x' });
    assert.equal(partial.labels.submit, 'Jetzt bezahlen');
    assert.equal(partial.labels.cvv, ENGLISH_TEXTS.cvv);
    assert.equal(partial.labels.declined, ENGLISH_TEXTS.declined);
    assert.ok(!('unknownKey' in partial.labels));
  });

  it("lets the merchant's labels and errorMessages win over the fetched language", () => {
    const options = { locale: 'ja', labels: { cardNumber: 'Numéro' }, errorMessages: { declineInsufficientFunds: 'Other card, please.' } };
    const context = withTexts(contextOf(options, BASE, 'c1'), options, labelsOf('ja'));
    assert.equal(context.labels.cardNumber, 'Numéro');
    assert.equal(context.labels.declineInsufficientFunds, 'Other card, please.');
    assert.equal(context.labels.cvv, labelsOf('ja').cvv);
    assert.equal(context.labels.declineBank, DECLINE_TEXTS['ja']!.declineBank);
  });

  it("keeps the merchant's submit label when the context's other choices are made (the amount stays off the button)", () => {
    const options = { locale: 'de', layout: 'tabs', labels: { submit: 'Kaufen' } };
    const context = withTexts(contextOf(options, BASE, 'c1'), options, german);
    assert.equal(context.labels.submit, 'Kaufen');
    assert.equal(context.amountOnButton, false);
  });
});
