import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redirectTargetOf, redirectWindowOf, type RedirectPlace } from '../../../widget/src/rules/redirect-target.js';

const GATEWAY = 'https://gateway.example';
const SHOP = 'https://shop.example';

test('widget: where a redirect opens (wpwlOptions.redirectTarget), a row per case', () => {
  const cases: [Partial<RedirectPlace>, string, string][] = [
    [{ target: 'page' }, 'page', 'the default: the whole window'],
    [{}, 'overlay', "the gateway's page, framable by the result page's origin, which is the page's"],
    [{ redirectUrl: 'https://acs.bank.example/challenge' }, 'popup', 'a page of another origin may refuse framing'],
    [{ resultUrl: 'https://other.example/result' }, 'popup', 'the gateway lets only the result origin frame its pages'],
    [{ resultUrl: 'https://shop.example:8443/result' }, 'popup', 'another port is another origin'],
    [{ resultUrl: 'not a url' }, 'popup', 'an unreadable result address'],
    [{ redirectUrl: 'https://gateway.example/v1/simulator/acs/x?y=1' }, 'overlay', 'a query changes nothing'],
  ];
  for (const [change, expected, why] of cases) {
    const place: RedirectPlace = { target: 'overlay', redirectUrl: `${GATEWAY}/v1/simulator/provider/abc`, gatewayOrigin: GATEWAY, pageOrigin: SHOP, resultUrl: `${SHOP}/result?order=1`, ...change };
    assert.equal(redirectWindowOf(place), expected, why);
  }
});

test('widget: redirectTarget by default: the overlay in the tabs and accordion layouts, the page in OPPWA\'s forms; a given value wins', () => {
  const cases: [unknown, 'forms' | 'tabs' | 'accordion', string, string][] = [
    [undefined, 'forms', 'page', "OPPWA's layout: unchanged"],
    [undefined, 'tabs', 'overlay', 'the new layouts keep the shopper on the page'],
    [undefined, 'accordion', 'overlay', 'the new layouts keep the shopper on the page'],
    ['page', 'tabs', 'page', "the merchant's choice wins"],
    ['overlay', 'forms', 'overlay', "the merchant's choice wins"],
    ['popup', 'tabs', 'overlay', "an unknown value: the layout's default"],
    [true, 'forms', 'page', "a wrong type: the layout's default"],
  ];
  for (const [option, layout, expected, why] of cases) assert.equal(redirectTargetOf(option, layout), expected, `${String(option)} in ${layout}: ${why}`);
});
