import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CHALLENGE_PAGE_OUTCOMES,
  MESSAGES,
  PAGE_LOCALES,
  PROVIDER_OUTCOMES,
  escapeHtml,
  formatAmount,
  pickLocale,
  renderChallengePage,
  renderEndedPage,
  renderProviderPage,
  type ChallengePageInput,
  type ProviderPageInput,
} from '../../../src/connectors/simulator/pages/index.js';

/** The simulator's provider, ACS and ended pages: every locale, every button, hostile text. */

const HOSTILE = `<script>alert("x")</script>&'\`<img src=x onerror=alert(1)>`;
const NONCE = 'r4nd0m-n0nce';

function providerInput(overrides: Partial<ProviderPageInput> = {}): ProviderPageInput {
  return {
    locale: 'en',
    brandName: 'Sofort',
    merchantName: 'Jane Shop',
    amount: '92.12',
    currency: 'EUR',
    formAction: '/simulator/redirects/8ac7a4a1',
    hidden: [{ name: 'token', value: 'abc123' }],
    nonce: NONCE,
    ...overrides,
  };
}

function challengeInput(overrides: Partial<ChallengePageInput> = {}): ChallengePageInput {
  return {
    locale: 'en',
    merchantName: 'Jane Shop',
    amount: '92.12',
    currency: 'EUR',
    cardLast4: '0002',
    formAction: '/simulator/acs/8ac7a4a1',
    hidden: [{ name: 'token', value: 'abc123' }],
    nonce: NONCE,
    ...overrides,
  };
}

function count(html: string, pattern: RegExp): number {
  return html.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
}

/** What every page must be: a complete document, no script, no external asset, one nonce'd style. */
function assertDocument(html: string, locale: string): void {
  assert.match(html, /^<!DOCTYPE html>\n<html lang="([a-z]{2})" dir="ltr">/);
  assert.equal(/<html lang="([a-z]{2})"/.exec(html)?.[1], locale);
  assert.match(html, /<meta charset="utf-8">/);
  assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  assert.match(html, /<title>[^<]+<\/title>/);
  assert.equal(count(html, /<style\b/), 1, 'one style element');
  assert.match(html, new RegExp(`<style nonce="${NONCE}">`));
  assert.equal(count(html, /<script\b/i), 0, 'no script');
  assert.equal(count(html, /\son[a-z]+=/i), 0, 'no inline handlers');
  assert.equal(count(html, /(src|href)=/i), 0, 'no external assets or links');
  assert.equal(count(html, /@import|url\(/i), 0, 'no assets from the stylesheet');
  assert.equal(count(html, /<h1>/), 1, 'one heading');
  assert.match(html, /<main>[\s\S]*<\/main>/);
  assert.ok(html.includes(escapeHtml(MESSAGES[locale as keyof typeof MESSAGES].testBanner)), 'test banner');
  assert.match(html, /<\/html>\n$/);
}

function assertForm(html: string, action: string, values: readonly string[]): void {
  assert.equal(count(html, /<form\b/), 1, 'one form');
  assert.ok(html.includes(`<form method="post" action="${action}">`), 'posts to the action');
  assert.match(html, /<input type="hidden" name="token" value="abc123">/);
  assert.equal(count(html, /<button\b/), values.length);
  for (const value of values) assert.match(html, new RegExp(`<button type="submit" name="outcome" value="${value}" class="[a-z]+">[^<]+</button>`), value);
  assert.match(html, /<fieldset>\n<legend>[^<]+<\/legend>/);
}

for (const locale of PAGE_LOCALES) {
  test(`provider page in ${locale}`, () => {
    const html = renderProviderPage(providerInput({ locale }));
    assertDocument(html, locale);
    assertForm(html, '/simulator/redirects/8ac7a4a1', ['approve', 'decline', 'cancel']);
    assert.ok(html.includes(escapeHtml(formatAmount('92.12', 'EUR', locale))), 'the amount in text');
    assert.ok(html.includes(escapeHtml(MESSAGES[locale].approve)));
    assert.ok(html.includes('Jane Shop') && html.includes('Sofort'));
  });

  test(`challenge page in ${locale}`, () => {
    const html = renderChallengePage(challengeInput({ locale }));
    assertDocument(html, locale);
    assertForm(html, '/simulator/acs/8ac7a4a1', ['Y', 'N', 'U', 'R', 'cancel']);
    assert.ok(html.includes(escapeHtml(MESSAGES[locale].challengeTitle)));
    assert.ok(html.includes('0002'));
  });

  test(`ended pages in ${locale}`, () => {
    for (const reason of ['completed', 'expired', 'not-found'] as const) {
      const html = renderEndedPage({ locale, reason, nonce: NONCE });
      assertDocument(html, locale);
      assert.equal(count(html, /<form\b|<button\b/), 0, 'nothing left to submit');
    }
    const titles = (['completed', 'expired', 'not-found'] as const).map((reason) => /<h1>([^<]+)<\/h1>/.exec(renderEndedPage({ locale, reason, nonce: NONCE }))?.[1]);
    assert.equal(new Set(titles).size, 3, 'each reason says its own thing');
  });
}

test('the documented outcomes are the buttons', () => {
  assert.deepEqual(PROVIDER_OUTCOMES, ['approve', 'decline', 'cancel']);
  assert.deepEqual(CHALLENGE_PAGE_OUTCOMES, ['Y', 'N', 'U', 'R', 'cancel']);
});

test('every locale has every message, none empty, and English and German differ', () => {
  const keys = Object.keys(MESSAGES.en).sort();
  for (const locale of PAGE_LOCALES) {
    assert.deepEqual(Object.keys(MESSAGES[locale]).sort(), keys, locale);
    for (const key of keys) assert.ok(MESSAGES[locale][key as keyof typeof MESSAGES.en].trim().length > 0, `${locale}.${key}`);
  }
  for (const key of keys) {
    if (!['authenticate', 'cancel'].includes(key)) assert.notEqual(MESSAGES.de[key as keyof typeof MESSAGES.en], MESSAGES.en[key as keyof typeof MESSAGES.en], key);
  }
});

test('hostile merchant and brand names, hidden fields and actions are escaped', () => {
  const provider = renderProviderPage(providerInput({ merchantName: HOSTILE, brandName: HOSTILE, hidden: [{ name: `a"><script>`, value: `"><img src=x>` }], formAction: `/x" onsubmit="alert(1)` }));
  const challenge = renderChallengePage(challengeInput({ merchantName: HOSTILE, hidden: [{ name: 'n', value: HOSTILE }] }));
  for (const html of [provider, challenge]) {
    assert.equal(count(html, /<script\b/i), 0);
    assert.equal(count(html, /<img\b/i), 0);
    assert.equal(count(html, /\son[a-z]+="/i), 0);
    assert.ok(html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;&#96;'));
  }
  assert.ok(provider.includes('action="/x&quot; onsubmit=&quot;alert(1)"'));
  assert.ok(provider.includes(`<title>Pay with &lt;script&gt;`), 'the title too');
  assert.ok(renderProviderPage(providerInput({ nonce: `"><script>` })).includes('<style nonce="&quot;&gt;&lt;script&gt;">'));
});

test('escapeHtml', () => {
  const cases: readonly (readonly [string, string])[] = [
    ['plain', 'plain'],
    ['', ''],
    ['<b>', '&lt;b&gt;'],
    ['a & b', 'a &amp; b'],
    ['&amp;', '&amp;amp;'],
    [`"double" 'single' \`back\``, '&quot;double&quot; &#39;single&#39; &#96;back&#96;'],
    ['Müller & Söhne · €', 'Müller &amp; Söhne · €'],
  ];
  for (const [input, expected] of cases) assert.equal(escapeHtml(input), expected, input);
});

test('the challenge page shows at most the last four digits', () => {
  const html = renderChallengePage(challengeInput({ cardLast4: '4200000000000000' }));
  assert.ok(!html.includes('4200000000000000') && !html.includes('42000000'));
  assert.ok(html.includes('0000'));
});

test('amounts are written in the page language, never rounded', () => {
  const cases: readonly (readonly [string, string, string, RegExp])[] = [
    ['92.12', 'EUR', 'de', /^92,12\s€$/],
    ['92.12', 'EUR', 'en', /^€92\.12$/],
    ['1234567.50', 'USD', 'en', /^\$1,234,567\.50$/],
    ['92.12', 'JPY', 'en', /92\.12/],
    ['100', 'EUR', 'nl', /100/],
    ['92.12', 'XX1', 'en', /^92\.12 XX1$/],
    ['abc', 'EUR', 'en', /^abc EUR$/],
  ];
  for (const [amount, currency, locale, expected] of cases) assert.match(formatAmount(amount, currency, locale), expected, `${amount} ${currency} ${locale}`);
});

test('pickLocale', () => {
  const cases: readonly (readonly [string | undefined, string | undefined, string])[] = [
    [undefined, undefined, 'en'],
    ['de', undefined, 'de'],
    ['de-AT', undefined, 'de'],
    ['DE_at', undefined, 'de'],
    ['fr-CA', 'de', 'fr'],
    ['pt-BR', 'nl-BE,nl;q=0.9', 'nl'],
    ['xx', undefined, 'en'],
    ['', 'it', 'it'],
    [undefined, 'de-CH,de;q=0.9,en;q=0.8', 'de'],
    [undefined, 'pt-BR,pt;q=0.9,es;q=0.8,en;q=0.7', 'es'],
    [undefined, 'en;q=0.5,de;q=0.9', 'de'],
    [undefined, 'de;q=0,fr', 'fr'],
    [undefined, '*', 'en'],
    [undefined, 'ja, zh-CN', 'en'],
    [undefined, ';;;,,q=2', 'en'],
    [undefined, 'es;q=0.8, it;q=0.8', 'es'],
  ];
  for (const [requested, acceptLanguage, expected] of cases) assert.equal(pickLocale(requested, acceptLanguage), expected, `${requested} / ${acceptLanguage}`);
});

test('an unsupported locale given to a renderer falls back to English texts and lang="en"', () => {
  const html = renderProviderPage(providerInput({ locale: 'ja' }));
  assert.match(html, /<html lang="en" dir="ltr">/);
  assert.ok(html.includes(MESSAGES.en.approve));
});
