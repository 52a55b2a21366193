import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decryptNotification, generateWebhookSecret } from '../../../src/domain/webhook-crypto.js';
import { buildNotificationRequest, deliveryBody, notificationBody, paymentPayload, testNotificationBody } from '../../../src/operations/webhooks/notification-message.js';

const NOTIFICATION_ID = 'a'.repeat(32);

describe('notification messages', () => {
  it('puts id, type, action and payload in that order and keeps the payload as given', () => {
    const body = notificationBody({ id: NOTIFICATION_ID, type: 'REGISTRATION', action: 'DELETED', payload: { id: 'r1', result: { code: '000.000.000' } } });
    assert.equal(body, `{"id":"${NOTIFICATION_ID}","type":"REGISTRATION","action":"DELETED","payload":{"id":"r1","result":{"code":"000.000.000"}}}`);
  });

  it('leaves action out when there is none', () => {
    assert.deepEqual(JSON.parse(notificationBody({ id: NOTIFICATION_ID, type: 'PAYMENT', action: null, payload: {} })), { id: NOTIFICATION_ID, type: 'PAYMENT', payload: {} });
  });

  it('a payment payload is the stored response plus the presentation amount and currency, in that order', () => {
    const response = { id: 'p1', paymentType: 'DB', amount: '92.00', currency: 'EUR', result: { code: '000.100.110' } };
    assert.deepEqual(Object.entries(paymentPayload(response)), [...Object.entries(response), ['presentationAmount', '92.00'], ['presentationCurrency', 'EUR']]);
  });

  it('a notification by reference gets the body it would have had with its payload stored', () => {
    const response = { id: 'p1', amount: '1.00', currency: 'EUR', result: { code: '000.100.110', description: 'ok' } };
    const byReference = { notificationId: NOTIFICATION_ID, notificationType: 'PAYMENT', notificationAction: null, body: null, transactionResponse: response };
    assert.equal(deliveryBody(byReference), notificationBody({ id: NOTIFICATION_ID, type: 'PAYMENT', action: null, payload: paymentPayload(response) }));
    assert.equal(deliveryBody({ ...byReference, body: '{"stored":true}' }), '{"stored":true}', 'a stored body wins');
    assert.throws(() => deliveryBody({ ...byReference, transactionResponse: null }), /neither a body nor a transaction/);
  });

  it('a test notification names the webhook', () => {
    const body = JSON.parse(testNotificationBody(NOTIFICATION_ID, { id: 'w'.repeat(32), entityId: 'e'.repeat(32) }));
    assert.equal(body.type, 'TEST');
    assert.equal(body.payload.webhookId, 'w'.repeat(32));
  });

  it('encrypts a webhook notification: hex body, text/plain, IV, tag and notification id headers', () => {
    const secret = generateWebhookSecret();
    const body = notificationBody({ id: NOTIFICATION_ID, type: 'PAYMENT', action: null, payload: { amount: '92.00' } });
    const request = buildNotificationRequest({ url: 'https://shop.example/hook', secret, body, notificationId: NOTIFICATION_ID });
    assert.equal(request.headers['Content-Type'], 'text/plain');
    assert.equal(request.headers['X-Notification-Id'], NOTIFICATION_ID);
    assert.match(request.body, /^[0-9A-F]+$/);
    assert.ok(!request.body.includes('92.00'));
    const message = { bodyHex: request.body, ivHex: request.headers['X-Initialization-Vector']!, tagHex: request.headers['X-Authentication-Tag']! };
    assert.equal(decryptNotification(message, secret), body);
  });

  it('sends the JSON in clear to a notificationUrl, which has no key', () => {
    const body = notificationBody({ id: NOTIFICATION_ID, type: 'PAYMENT', action: null, payload: {} });
    const request = buildNotificationRequest({ url: 'https://shop.example/n', secret: null, body, notificationId: NOTIFICATION_ID });
    assert.equal(request.body, body);
    assert.equal(request.headers['Content-Type'], 'application/json');
    assert.equal(request.headers['X-Initialization-Vector'], undefined);
  });
});
