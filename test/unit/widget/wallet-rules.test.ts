import assert from 'node:assert/strict';
import { test } from 'node:test';
import { walletTextsOf, withWallet } from '../../../widget/src/i18n/wallet-texts.js';
import { WIDGET_LOCALES } from '../../../widget/src/rules/locale.js';
import { isWalletBrand, offeredWallets, walletNameOf, type WalletOffer } from '../../../widget/src/rules/wallets.js';

const SHOP = 'https://shop.example';
const SERVED = ['WALLETA', 'WALLETB', 'WALLETC'];

test('widget: which wallet buttons are shown (docs/widget.md, "Wallets on the test system"), a row per case', () => {
  const cases: [Partial<WalletOffer>, string[], string][] = [
    [{}, ['WALLETB', 'WALLETA'], "the page's wallets the sheet serves, in the page's order"],
    [{ served: undefined }, [], 'the live system serves no sheet: no button'],
    [{ served: ['WALLETA'] }, ['WALLETA'], 'only what the gateway serves'],
    [{ resultUrl: 'https://other.example/result' }, [], 'the sheet may be framed by the result origin only'],
    [{ resultUrl: 'https://shop.example:8443/result' }, [], 'another port is another origin'],
    [{ resultUrl: 'not a url' }, [], 'an unreadable result address'],
    [{ brands: ['VISA', 'PAYPAL'] }, [], 'no wallet on the page'],
  ];
  for (const [change, expected, why] of cases) {
    const offer: WalletOffer = { brands: ['VISA', 'WALLETB', 'PAYPAL', 'WALLETA'], served: SERVED, pageOrigin: SHOP, resultUrl: `${SHOP}/result?order=1`, ...change };
    assert.deepEqual(offeredWallets(offer), expected, why);
  }
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
