import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenshot } from './support/browser.js';
import { CARD, STORED, useStubSuite, waitFor } from './support/widget-stub-suite.js';
import { gatewayFrames, typeCard } from './support/widget-shopper.js';

/**
 * The widget's browser side in headless Chromium against a stub of the checkout endpoints (the
 * contract of docs/widget.md) and the gateway's real widget routes, on a merchant page of another
 * site with the documented CSP: what is drawn, what is checked before anything is sent, languages,
 * keyboard, styles, SRI, and that the merchant page cannot read the card number or the CVV.
 * The payment flows: widget-browser-flows.test.ts. Screenshots: test-artifacts/e2e/widget-*.
 */

const ALL_BRANDS = 'VISA MASTER AMEX SOFORTUEBERWEISUNG PAYPAL DIRECTDEBIT_SEPA';

describe('the payment widget in a real browser: forms, checks, languages, safety (stubbed checkout)', { timeout: 300_000 }, () => {
  const suite = useStubSuite();

  it('renders one form per brand, the stored card first, with OPPWA class names (en)', async () => {
    const { at } = await suite.open(ALL_BRANDS, { locale: 'en' }, { registrations: [STORED] });
    const forms = await at.page.locator('.wpwl-container > form.wpwl-form').evaluateAll((elements) => elements.map((element) => element.className));
    assert.equal(forms.length, 5, forms.join('\n'));
    assert.match(forms[0]!, /wpwl-form-registrations/);
    assert.match(forms[1]!, /wpwl-form-card/);
    assert.match(forms[2]!, /wpwl-form-virtualAccount-SOFORTUEBERWEISUNG/);
    assert.match(forms[3]!, /wpwl-form-virtualAccount-PAYPAL/);
    assert.match(forms[4]!, /wpwl-form-directDebit/);
    for (const selector of ['.wpwl-group-cardNumber .wpwl-label', '.wpwl-wrapper-cardNumber iframe.wpwl-control-cardNumber', 'iframe.wpwl-control-cvv', 'input.wpwl-control-expiry', 'input.wpwl-control-cardHolder', 'button.wpwl-button-pay', '.wpwl-registrations', 'input[name="bankAccount.iban"]', 'input[name="bankAccount.country"]']) {
      assert.ok((await at.page.locator(selector).count()) > 0, `${selector} is on the page`);
    }
    assert.match(await at.page.locator('.wpwl-registration').innerText(), /1111/);
    assert.equal(await at.page.locator('.wpwl-form-card .wpwl-label-otherCard').innerText(), 'Pay with another card');
    await at.numberInput().pressSequentially('4200000000000000');
    await screenshot(at.page, 'widget-en');
    assert.deepEqual(at.errors, []);
    await at.close();
  });

  it('detects the brand as the number is typed, groups the digits and sizes the CVV', async () => {
    const { at } = await suite.open('VISA MASTER AMEX');
    const detected = () => at.page.locator('.wpwl-form-card').getAttribute('data-brand');
    await at.numberInput().pressSequentially('4');
    await waitFor(async () => (await detected()) === 'VISA', 'VISA after "4"');
    await at.numberInput().fill('');
    await at.numberInput().pressSequentially('51');
    await waitFor(async () => (await detected()) === 'MASTER', 'MASTER after "51"');
    await at.numberInput().fill('');
    await at.numberInput().pressSequentially('378282246310005');
    await waitFor(async () => (await detected()) === 'AMEX', 'AMEX after "37"');
    assert.equal(await at.numberInput().inputValue(), '3782 822463 10005', 'AMEX grouping 4-6-5');
    await at.cvvInput().pressSequentially('12345');
    assert.equal(await at.cvvInput().inputValue(), '1234', 'four digits for AMEX');
    assert.match(String(await at.page.locator('.wpwl-brand-AMEX').getAttribute('class')), /wpwl-brand-detected/);
    await screenshot(at.page, 'widget-amex-detected');
    await at.close();
  });

  it('refuses a wrong number, an expired card and a missing holder before anything is sent', async () => {
    const { checkout, at } = await suite.open('VISA MASTER');
    await typeCard(at, { number: '4200000000000001', expiry: '0120', cvv: '12', holder: '' });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    const form = at.page.locator('.wpwl-form-card');
    await form.locator('.wpwl-group-cardNumber.wpwl-has-error').waitFor();
    assert.equal(await form.locator('.wpwl-hint-cardNumberError').innerText(), 'Invalid card number');
    assert.equal(await form.locator('.wpwl-hint-expiryError').innerText(), 'This card has expired');
    assert.equal(await form.locator('.wpwl-hint-cvvError').innerText(), 'Invalid CVV');
    assert.equal(await form.locator('.wpwl-hint-cardHolderError').innerText(), 'Invalid card holder');
    const expiry = form.locator('.wpwl-control-expiry');
    assert.equal(await expiry.getAttribute('aria-invalid'), 'true');
    assert.equal(await at.page.locator(`#${await expiry.getAttribute('aria-describedby')}`).innerText(), 'This card has expired');
    assert.equal(await at.numberInput().getAttribute('aria-invalid'), 'true', 'the frame input is marked for screen readers');
    assert.equal(await at.page.frameLocator('.wpwl-form-card iframe.wpwl-control-cardNumber').locator('#hint').textContent(), 'Invalid card number');
    await screenshot(at.page, 'widget-errors');
    assert.equal(checkout.payments.length, 0, 'nothing was sent');

    await at.page.locator('.wpwl-form-card .wpwl-control-cardHolder').fill('Jane Jones');
    await at.numberInput().pressSequentially('0'.repeat(3), { delay: 5 });
    await at.numberInput().fill('4242424242424242');
    await form.locator('.wpwl-control-expiry').fill('12 / 30');
    await at.cvvInput().fill('123');
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await suite.backAtShop(at);
    assert.equal(checkout.payments.length, 1);
    await at.close();
  });

  it('THE MERCHANT PAGE CANNOT READ THE CARD NUMBER OR THE CVV', async () => {
    const { checkout, at } = await suite.open('VISA MASTER');
    await typeCard(at, { ...CARD, number: '4111111111111111', cvv: '737' });
    const frames = gatewayFrames(at.page, new URL(suite.gateway().url).origin);
    assert.equal(frames.length, 2, 'number and CVV live in frames of the gateway');
    // Everything the merchant's own script can reach: its DOM, its inputs, the frames, the messages it received.
    const seen = await at.page.evaluate(() => {
      const reach: string[] = [document.documentElement.outerHTML];
      for (const input of Array.from(document.querySelectorAll('input'))) reach.push(input.value);
      const blocked: string[] = [];
      for (const iframe of Array.from(document.querySelectorAll('iframe'))) {
        if (iframe.contentDocument !== null) blocked.push('contentDocument readable');
        try {
          reach.push((iframe.contentWindow as Window).document.body.innerHTML);
          blocked.push('contentWindow.document readable');
        } catch {
          // SecurityError: another origin.
        }
      }
      return { reach: reach.join('\n'), messages: (window as unknown as { __seen: string[] }).__seen, blocked };
    });
    assert.deepEqual(seen.blocked, [], 'the frames are closed to the page');
    const digits = (text: string) => text.replace(/\D/g, '');
    for (const text of [seen.reach, ...seen.messages]) {
      assert.ok(!digits(text).includes('4111111111111111'), 'no card number where the page can see');
      assert.ok(!text.includes('4111 1111'), 'not even grouped');
    }
    assert.ok(seen.messages.length > 0, 'the page did get the frames’ messages');
    assert.ok(seen.messages.every((message) => !/"(value|number|cvv)"\s*:\s*"\d/.test(message)), `no values in messages: ${seen.messages.join('\n')}`);
    assert.ok(!seen.messages.some((message) => message.includes('737')), 'no CVV in messages');
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await suite.backAtShop(at);
    assert.equal(checkout.payments[0]?.['card.number'], '4111111111111111', 'yet the gateway got it');
    assert.equal(checkout.payments[0]?.['card.cvv'], '737');
    await at.close();
  });

  it('speaks German for de-AT', async () => {
    const { at } = await suite.open(ALL_BRANDS, { locale: 'de-AT' });
    assert.equal(await at.page.locator('.wpwl-container').getAttribute('lang'), 'de');
    assert.equal(await at.page.locator('.wpwl-form-card .wpwl-button-pay').innerText(), 'Jetzt bezahlen');
    assert.equal(await at.page.locator('.wpwl-form-card .wpwl-label-cardNumber').innerText(), 'Kartennummer');
    assert.equal(await at.page.locator('input[name="bankAccount.country"]').inputValue(), 'AT', 'the region preselects the bank country');
    assert.equal(await at.numberInput().getAttribute('aria-label'), 'Kartennummer');
    await typeCard(at, { ...CARD, number: '4200000000000001', expiry: '0120' });
    await at.page.click('.wpwl-form-card .wpwl-button-pay');
    await at.page.locator('.wpwl-hint-cardNumberError:not([hidden])').waitFor();
    assert.equal(await at.page.locator('.wpwl-hint-cardNumberError').innerText(), 'Ungültige Kartennummer');
    assert.equal(await at.page.locator('.wpwl-hint-expiryError').innerText(), 'Diese Karte ist abgelaufen');
    await screenshot(at.page, 'widget-de');
    await at.close();
  });

  it('writes Arabic right to left', async () => {
    const { at } = await suite.open('VISA MASTER PAYPAL', { locale: 'ar' }, { registrations: [STORED] });
    const container = at.page.locator('.wpwl-container');
    assert.equal(await container.getAttribute('dir'), 'rtl');
    assert.equal(await container.getAttribute('lang'), 'ar');
    assert.equal(await at.page.locator('.wpwl-form-card .wpwl-button-pay').innerText(), 'ادفع الآن');
    assert.equal(await at.page.frameLocator('.wpwl-form-card iframe.wpwl-control-cardNumber').locator('html').getAttribute('dir'), 'rtl');
    const label = await at.page.locator('.wpwl-form-card .wpwl-label-cardNumber').boundingBox();
    const control = await at.page.locator('.wpwl-form-card iframe.wpwl-control-cardNumber').boundingBox();
    assert.ok(label && control && Math.abs(label.x + label.width - (control.x + control.width)) < 2, 'labels sit at the right edge');
    await at.numberInput().pressSequentially('4200000000000000');
    await screenshot(at.page, 'widget-ar');
    await at.close();
  });

  it('works by keyboard alone: tab order number → expiry → CVV → holder → pay, Enter pays', async () => {
    const { checkout, at } = await suite.open('VISA MASTER', { autofocus: 'card.number' });
    await waitFor(async () => (await at.numberInput().evaluate((input) => document.activeElement === input)) === true, 'autofocus on the number');
    await at.page.keyboard.type('4200000000000000');
    await at.page.keyboard.press('Tab');
    assert.equal(await at.page.evaluate(() => document.activeElement?.className ?? ''), 'wpwl-control wpwl-control-expiry', 'the expiry after the number');
    await at.page.keyboard.type('1230');
    await at.page.keyboard.press('Tab');
    await waitFor(async () => (await at.cvvInput().evaluate((input) => document.activeElement === input)) === true, 'the CVV after the expiry');
    await at.page.keyboard.type('123');
    await at.page.keyboard.press('Tab');
    assert.match(await at.page.evaluate(() => document.activeElement?.className ?? ''), /wpwl-control-cardHolder/);
    await at.page.keyboard.type('Jane Jones');
    await at.page.keyboard.press('Tab');
    assert.match(await at.page.evaluate(() => document.activeElement?.className ?? ''), /wpwl-button-pay/);
    await at.page.keyboard.press('Enter');
    await suite.backAtShop(at);
    assert.equal(checkout.payments[0]?.['card.number'], '4200000000000000');
    await at.close();
  });

  it('style logos folds the forms behind brand buttons; style none adds no styles; labels override', async () => {
    const { at } = await suite.open('VISA MASTER PAYPAL', { style: 'logos', labels: { submit: 'Buy now' } });
    assert.equal(await at.page.locator('.wpwl-form-card').isVisible(), false);
    await at.page.locator('.wpwl-button-brand').first().click();
    assert.equal(await at.page.locator('.wpwl-form-card').isVisible(), true);
    assert.equal(await at.page.locator('.wpwl-form-virtualAccount').isVisible(), false);
    assert.equal(await at.page.locator('.wpwl-form-card .wpwl-button-pay').innerText(), 'Buy now');
    await at.close();
    const plain = await suite.open('VISA', { style: 'none' });
    assert.equal(await plain.at.page.evaluate(() => document.adoptedStyleSheets.length), 0);
    await plain.at.close();
  });

  it('a script whose bytes do not match the integrity is not run (SRI)', async () => {
    const { at } = await suite.open('VISA', {}, { integrity: 'sha384-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }).catch(() => ({ at: undefined }));
    assert.equal(at, undefined, 'the widget never became ready');
  });
});
