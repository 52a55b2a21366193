import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brandResultOf } from '../../../../src/domain/responses/brand-result.js';
import { paymentForMerchant, withoutConnectorDetails } from '../../../../src/domain/responses/connector-details.js';
import { checkMerchantBankAccount, paysIntoMerchantAccount } from '../../../../src/domain/responses/merchant-bank-account.js';
import { deliveryBody } from '../../../../src/operations/webhooks/notification-message.js';

const DETAILS = { ConnectorTxID1: 'SIM-1', ConnectorTxID2: '123456', ConnectorTxID3: '632610246283', AcquirerResponse: '05', clearingInstituteName: 'Bank', ExtendedDescription: 'Do not honour', MerchantAdviceCode: '02' };
const PAYMENT = { id: 'p1', amount: '92.00', currency: 'EUR', resultDetails: DETAILS, result: { code: '800.100.100' } };

describe('connector details in a payment answer', () => {
  it('hidden: the five connector names go, the description and advice code stay, the input is untouched', () => {
    const shown = withoutConnectorDetails(PAYMENT);
    assert.deepEqual(shown.resultDetails, { ExtendedDescription: 'Do not honour', MerchantAdviceCode: '02' });
    assert.equal(PAYMENT.resultDetails.ConnectorTxID1, 'SIM-1', 'the stored object is not changed');
    assert.deepEqual(Object.keys(shown), Object.keys(PAYMENT), 'the key order stays');
  });

  it('hidden: resultDetails with nothing else left disappear; an answer without details is the same object', () => {
    const onlyConnector = { id: 'p2', resultDetails: { ConnectorTxID1: 'SIM-2', AcquirerResponse: '00' } };
    assert.equal('resultDetails' in withoutConnectorDetails(onlyConnector), false);
    const none = { id: 'p3', resultDetails: { ExtendedDescription: 'Approved' } };
    assert.equal(withoutConnectorDetails(none), none);
  });

  it('shown: the answer is the stored object itself', () => {
    assert.equal(paymentForMerchant(PAYMENT, true), PAYMENT);
  });

  it('webhook bodies follow the receiving entity\'s setting, by reference or stored', () => {
    const common = { notificationId: 'n1', notificationType: 'PAYMENT', notificationAction: null };
    const byReference = JSON.parse(deliveryBody({ ...common, body: null, transactionResponse: PAYMENT, showConnectorDetails: false }));
    assert.equal(byReference.payload.resultDetails.ConnectorTxID1, undefined);
    assert.equal(byReference.payload.presentationAmount, '92.00');
    const stored = JSON.stringify({ id: 'n1', type: 'PAYMENT', payload: PAYMENT });
    assert.equal(JSON.parse(deliveryBody({ ...common, body: stored, transactionResponse: null, showConnectorDetails: false })).payload.resultDetails.AcquirerResponse, undefined);
    assert.equal(deliveryBody({ ...common, body: stored, transactionResponse: null, showConnectorDetails: true }), stored);
    assert.equal(JSON.parse(deliveryBody({ ...common, body: null, transactionResponse: PAYMENT })).payload.resultDetails.ConnectorTxID1, 'SIM-1', 'shown when the setting is not known');
  });
});

describe('brandResult', () => {
  it('is the brand of the number\'s range, from a full number or a BIN', () => {
    assert.equal(brandResultOf('4200000000000000'), 'VISA');
    assert.equal(brandResultOf('545454'), 'MASTER');
    assert.equal(brandResultOf('377777777777770'), 'AMEX');
    assert.equal(brandResultOf('0000000000000000'), undefined);
    assert.equal(brandResultOf(undefined), undefined);
  });
});

describe('the merchant\'s bank account', () => {
  it('is shown for PREPAYMENT only', () => {
    assert.equal(paysIntoMerchantAccount('PREPAYMENT'), true);
    for (const brand of ['BOLETO', 'PAYSAFECARD', 'KLARNA_INVOICE', 'VISA', null, undefined]) assert.equal(paysIntoMerchantAccount(brand), false, String(brand));
  });

  it('is stored in electronic form and checked field by field', () => {
    assert.deepEqual(checkMerchantBankAccount({ holder: ' Shop GmbH ', number: 'de89 3704 0044 0532 0130 00', bic: 'cobadeffxxx', country: 'de' }), {
      account: { holder: 'Shop GmbH', number: 'DE89370400440532013000', bic: 'COBADEFFXXX', country: 'DE' },
    });
    const refused = checkMerchantBankAccount({ holder: '', number: 'DE00370400440532013000', bic: 'X', country: 'Germany' });
    assert.ok('problems' in refused);
    assert.deepEqual(refused.problems.map((p) => p.name), ['holder', 'number', 'bic', 'country']);
    const neither = checkMerchantBankAccount({ holder: 'Shop', number: undefined, bic: undefined, country: undefined });
    assert.ok('problems' in neither && neither.problems[0]!.name === 'number');
    assert.ok('account' in checkMerchantBankAccount({ holder: 'Shop', number: '1234567890', bic: undefined, country: 'US' }), 'a non-IBAN account number is accepted');
  });
});
