import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redirectWindowOf, type RedirectPlace } from '../../../widget/src/rules/redirect-target.js';

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
