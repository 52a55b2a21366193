import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelsOf } from '../../../widget/src/i18n/index.js';
import { WIDGET_LOCALES } from '../../../widget/src/rules/locale.js';
import { formatAmount, numberLocaleOf, payLabel } from '../../../widget/src/rules/pay-label.js';
import { colorSchemeOf, safeFrameStyle, safeStyleValue, themeDeclarations, type StyleKind } from '../../../widget/src/rules/style-values.js';

describe('widget: the style values a theme and a frame take', () => {
  const cases: [kind: StyleKind, value: unknown, accepted: boolean][] = [
    ['color', '#0a7d5a', true],
    ['color', '#FFF', true],
    ['color', '#12345678', true],
    ['color', 'rebeccapurple', true],
    ['color', 'rgb(27, 31, 36)', true],
    ['color', 'rgba(0, 0, 0, 0)', true],
    ['color', 'oklch(62% 0.19 250 / 0.9)', true],
    ['color', 'color(srgb 0.1 0.2 0.3)', true],
    ['color', ' #abc ', true],
    ['color', '#12345', false],
    ['color', 'url(https://evil.example/x.png)', false],
    ['color', 'rgb(var(--x), 0, 0)', false],
    ['color', 'red; background: url(x)', false],
    ['color', 'red}body{display:none', false],
    ['color', 'expression(alert(1))', false],
    ['color', '"red"', false],
    ['color', '', false],
    ['color', 42, false],
    ['length', '0', true],
    ['length', '12px', true],
    ['length', '.5rem', true],
    ['length', '1.25em', true],
    ['length', '12', false],
    ['length', 'calc(1px + 2px)', false],
    ['length', '12px 4px', false],
    ['line', 'normal', true],
    ['line', '24px', true],
    ['line', '1.5', true],
    ['line', '-0.2px', true],
    ['font-family', '"DejaVu Sans", sans-serif', true],
    ['font-family', "Georgia, 'Times New Roman', serif", true],
    ['font-family', 'system-ui', true],
    ['font-family', '"Noto Sans JP", sans-serif', true],
    ['font-family', '"a\\"b", serif', false],
    ['font-family', 'x, url(y)', false],
    ['font-family', '"Inter"; color: red', false],
    ['font-family', 'a,b,c,d,e,f,g,h,i', false],
    ['font-weight', '600', true],
    ['font-weight', 'bold', true],
    ['font-weight', 'heavy!', false],
    ['color-scheme', 'dark', true],
    ['color-scheme', 'light dark', true],
    ['color-scheme', 'only dark', false],
  ];
  for (const [kind, value, accepted] of cases) {
    it(`${kind} ${JSON.stringify(value)} → ${accepted ? 'taken' : 'refused'}`, () => assert.equal(safeStyleValue(kind, value) !== undefined, accepted));
  }

  it('a frame takes only the known properties with safe values', () => {
    assert.deepEqual(
      safeFrameStyle({ color: 'rgb(1, 2, 3)', 'background-color': 'url(x)', 'font-size': '16px', 'color-scheme': 'dark', '--wpwl-_error': '#ff8a80', 'background-image': 'url(https://evil.example)', position: 'fixed' }),
      { color: 'rgb(1, 2, 3)', 'font-size': '16px', 'color-scheme': 'dark', '--wpwl-_error': '#ff8a80' },
    );
    assert.deepEqual(safeFrameStyle('color: red'), {});
    assert.deepEqual(safeFrameStyle(null), {});
  });

  it('wpwlOptions.theme: known names to their variables, unsafe values dropped', () => {
    assert.deepEqual(themeDeclarations({ colorPrimary: '#0a7d5a', radius: '12px', fontFamily: 'Georgia, serif', colorText: 'url(x)', colorBackground: 7, unknown: '#fff' }), [
      ['--wpwl-color-primary', '#0a7d5a'],
      ['--wpwl-radius', '12px'],
      ['--wpwl-font-family', 'Georgia, serif'],
    ]);
    assert.deepEqual(themeDeclarations('dark'), []);
  });

  const schemes: [option: unknown, prefersDark: boolean, scheme: string][] = [
    [undefined, false, 'light'],
    [undefined, true, 'dark'],
    ['auto', true, 'dark'],
    ['light', true, 'light'],
    ['dark', false, 'dark'],
    ['night', true, 'dark'],
    ['night', false, 'light'],
  ];
  for (const [option, prefersDark, scheme] of schemes) {
    it(`colorScheme ${JSON.stringify(option)}, shopper prefers ${prefersDark ? 'dark' : 'light'} → ${scheme}`, () => assert.equal(colorSchemeOf(option, prefersDark), scheme));
  }
});

describe('widget: the amount on the pay button', () => {
  const cases: [locale: (typeof WIDGET_LOCALES)[number], requested: string | undefined, amount: string, currency: string, expected: string][] = [
    ['en', 'en', '12.50', 'EUR', 'Pay €12.50'],
    ['de', 'de', '12.50', 'EUR', '12,50 € zahlen'],
    ['de', 'de-AT', '1234.50', 'EUR', '€ 1.234,50 zahlen'],
    ['en', 'en-GB', '92.00', 'GBP', 'Pay £92.00'],
    ['ja', 'ja', '1500', 'JPY', '￥1,500を支払う'],
    ['fr', 'fr', '92.00', 'EUR', 'Payer 92,00 €'],
  ];
  for (const [locale, requested, amount, currency, expected] of cases) {
    it(`${requested}: ${amount} ${currency} → ${expected}`, () => {
      const text = payLabel(labelsOf(locale), amount, currency, numberLocaleOf(locale, requested));
      // Intl separates a number and its currency with a no-break space.
      assert.equal(text.replace(/\u00a0|\u202f/g, ' '), expected);
    });
  }
  it('every language has the text, with {amount}', () => {
    for (const locale of WIDGET_LOCALES) assert.match(labelsOf(locale).submitAmount, /\{amount\}/, locale);
  });
  it('the region only when it belongs to the language', () => {
    assert.equal(numberLocaleOf('de', 'de-AT'), 'de-AT');
    assert.equal(numberLocaleOf('dk', 'da_DK'), 'da-DK');
    assert.equal(numberLocaleOf('en', 'xx-YY'), 'en');
    assert.equal(numberLocaleOf('de', undefined), 'de');
  });
  it('an amount or currency Intl cannot take leaves the plain text', () => {
    for (const [amount, currency] of [['12,50', 'EUR'], ['1e3', 'EUR'], ['12.50', 'euro'], ['12.50', 'XY1']]) {
      assert.equal(formatAmount(amount!, currency!, 'en'), undefined);
      assert.equal(payLabel(labelsOf('en'), amount!, currency!, 'en'), 'Pay now');
    }
  });
});
