import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenshot } from './support/browser.js';
import { CARD, useStubSuite } from './support/widget-stub-suite.js';
import { typeCard, type WidgetPage } from './support/widget-shopper.js';

/**
 * A script on the merchant's page (an injected tag, a compromised library) reads a card frame's
 * address, which names the form's session, and adds a gateway frame of its own to that session:
 * a poster bound to another checkout that collects the CVV (and, as the number frame, would send
 * the number) from the shopper's frames over their shared channel and pays the other checkout.
 * The frames bind to each other by ids the page never sees and by their checkout
 * (widget/src/frame-binding.ts), so the forged frame gets nothing and the shopper's payment goes on.
 */

interface ForgedOutcome {
  readonly result: { status: number } | undefined;
}

/** The attack, run inside the merchant page: forge a poster of the same session for `otherCheckout`. */
function forgePoster(at: WidgetPage, otherCheckout: string, field: 'number' | 'cvv'): Promise<ForgedOutcome> {
  return at.page.evaluate(
    async ({ otherCheckout, field }) => {
      const shopperFrame = document.querySelector('.wpwl-form-card iframe.wpwl-control-cvv') as HTMLIFrameElement;
      const [frameAddress, fragment] = shopperFrame.src.split('#') as [string, string];
      const settings = JSON.parse(decodeURIComponent(fragment)) as Record<string, unknown>;
      const forged = { ...settings, field, poster: true, collect: field === 'number' ? ['cvv'] : ['number'], checkoutId: otherCheckout };
      const frame = document.createElement('iframe');
      const gatewayOrigin = new URL(frameAddress).origin;
      const result = new Promise<{ status: number } | undefined>((resolve) => {
        setTimeout(() => resolve(undefined), 8_000);
        window.addEventListener('message', (event: MessageEvent<Record<string, unknown>>) => {
          if (event.source !== frame.contentWindow) return;
          if (event.data['type'] === 'ready') {
            const fields = [['paymentBrand', 'VISA'], ['card.holder', 'Jane Jones'], ['card.expiryMonth', '12'], ['card.expiryYear', '2030']];
            frame.contentWindow?.postMessage({ wpwl: settings['session'], type: 'pay', fields }, gatewayOrigin);
          }
          if (event.data['type'] === 'result') resolve({ status: Number(event.data['status']) });
        });
      });
      frame.src = `${frameAddress}#${encodeURIComponent(JSON.stringify(forged))}`;
      document.body.append(frame);
      return { result: await result };
    },
    { otherCheckout, field },
  );
}

describe('the card frames of one widget cannot be joined by a frame the merchant page adds', { timeout: 120_000 }, () => {
  const suite = useStubSuite();

  for (const field of ['number', 'cvv'] as const) {
    it(`a forged ${field} poster of the same session, bound to another checkout, collects nothing; the shopper still pays`, async () => {
      const other = suite.gateway().checkout();
      const { checkout, at } = await suite.open('VISA MASTER');
      await typeCard(at, { ...CARD, number: '4111111111111111', cvv: '737' });

      const outcome = await forgePoster(at, other.id, field);

      assert.ok(outcome.result, 'the forged frame did post (to its own checkout)');
      for (const payment of other.payments) {
        assert.equal(payment['card.cvv'], undefined, 'the shopper’s CVV never reached the other checkout');
        assert.equal(payment['card.number'], undefined, 'nor the number the shopper typed');
      }
      await screenshot(at.page, `widget-forged-${field}-frame`);

      await at.page.click('.wpwl-form-card .wpwl-button-pay');
      await suite.backAtShop(at);
      assert.equal(checkout.payments.length, 1);
      assert.equal(checkout.payments[0]?.['card.cvv'], '737', 'the shopper’s own form still collects its CVV');
      assert.equal(checkout.payments[0]?.['card.number'], '4111111111111111');
      await at.close();
    });
  }
});
