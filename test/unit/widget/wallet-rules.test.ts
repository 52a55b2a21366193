import assert from 'node:assert/strict';
import { test } from 'node:test';
import { walletTextsOf, withWallet } from '../../../widget/src/i18n/wallet-texts.js';
import { WIDGET_LOCALES } from '../../../widget/src/rules/locale.js';
import { isWalletBrand, offeredWallets, sheetWindowOf, walletNameOf, type WalletOffer } from '../../../widget/src/rules/wallets.js';

const SHOP = 'https://shop.example';
const SERVED = ['WALLETA', 'WALLETB', 'WALLETC'];

test('widget: which wallet buttons are shown (docs/widget.md, "Wallets on the test system"), a row per case', () => {
  const cases: [Partial<WalletOffer>, string[], string][] = [
    [{}, ['WALLETB', 'WALLETA'], "the page's wallets the sheet serves, in the page's order"],
    [{ served: undefined }, [], 'the live system serves no sheet: no button'],
    [{ served: ['WALLETA'] }, ['WALLETA'], 'only what the gateway serves'],
    [{ served: [] }, [], 'nothing served'],
    [{ brands: ['VISA', 'PAYPAL'] }, [], 'no wallet on the page'],
    [{ brands: ['WALLETD', 'WALLETC'] }, ['WALLETC'], 'not a wallet of the specification'],
  ];
  for (const [change, expected, why] of cases) {
    const offer: WalletOffer = { brands: ['VISA', 'WALLETB', 'PAYPAL', 'WALLETA'], served: SERVED, ...change };
    assert.deepEqual(offeredWallets(offer), expected, why);
  }
});

test('widget: where the wallet sheet opens first, a row per case (a blocked popup falls back to the whole window)', () => {
  const cases: [string, string, 'frame' | 'popup', string][] = [
    [SHOP, `${SHOP}/result?order=1`, 'frame', "the page is of the result page's origin: the dialog may frame the sheet"],
    [SHOP, 'https://other.example/result', 'popup', 'another origin may not frame it'],
    [SHOP, 'https://shop.example:8443/result', 'popup', 'another port is another origin'],
    ['http://shop.example', `${SHOP}/result`, 'popup', 'another scheme is another origin'],
    [SHOP, 'not a url', 'popup', 'an unreadable result address: never the frame'],
  ];
  for (const [pageOrigin, resultUrl, expected, why] of cases) assert.equal(sheetWindowOf({ pageOrigin, resultUrl }), expected, why);
});

test('widget: wallet brands and names', () => {
  assert.equal(isWalletBrand('WALLETA'), true);
  assert.equal(isWalletBrand('WALLETD'), false);
  assert.equal(isWalletBrand('toString'), false);
  assert.equal(walletNameOf('WALLETC'), 'walletC');
});

test('widget: the wallet texts in all 25 languages, each naming the wallet', () => {
  for (const locale of WIDGET_LOCALES) {
    const texts = walletTextsOf(locale);
    assert.ok(withWallet(texts.pay, 'walletA').includes('walletA'), `${locale}: pay`);
    assert.ok(withWallet(texts.sheet, 'walletA').includes('walletA'), `${locale}: sheet`);
    assert.ok(texts.group.trim() !== '', `${locale}: group`);
  }
  assert.equal(withWallet(walletTextsOf('de').pay, 'walletB'), 'Mit walletB bezahlen');
});
