/**
 * English, the one language the widget's script carries: its texts when the merchant asks for
 * English or for a language outside the 25, and the fallback of every other language, whose texts
 * the script fetches from the gateway (GET /v1/widget/texts/{locale}, docs/widget.md) before it
 * draws a form. The other 24 languages live in west.ts, north-central.ts, east.ts and
 * decline-texts.ts, which only the gateway and the build read (index.ts).
 */
import type { DeclineTexts } from './decline-texts.js';
import type { Labels } from './keys.js';

export const ENGLISH_LABELS: Labels = {
  cardNumber: 'Card number',
  cvv: 'CVV',
  expiryDate: 'Expiry date',
  mmyy: 'MM / YY',
  cardHolder: 'Card holder',
  submit: 'Pay now',
  submitAmount: 'Pay {amount}',
  storedCards: 'Your stored cards',
  otherCard: 'Pay with another card',
  accountHolder: 'Account holder',
  iban: 'IBAN',
  bic: 'BIC',
  country: 'Country',
  redirectNote: 'You will be taken to {brand} to complete the payment.',
  cardNumberError: 'Invalid card number',
  brandNotAccepted: 'This card type is not accepted',
  cvvError: 'Invalid CVV',
  expiryDateError: 'Invalid expiry date',
  expiredError: 'This card has expired',
  cardHolderError: 'Invalid card holder',
  requiredError: 'This field is required',
  ibanError: 'Invalid IBAN',
  checkoutExpired: 'This payment session has expired. Please start your payment again.',
  paymentFailed: 'The payment could not be processed. Please try again.',
  processing: 'Processing…',
  overlayTitle: 'Secure payment step',
  close: 'Close',
  cardMethod: 'Card',
  paymentMethods: 'Payment method',
};

export const ENGLISH_DECLINE_TEXTS: DeclineTexts = {
  declineInsufficientFunds: 'Your card has insufficient funds. Use another card.',
  declineCvv: 'Check the security code (CVV) and try again.',
  declineExpiry: 'Check the expiry date and try again.',
  declineCardNumber: 'This card cannot be used. Check the card number or use another card.',
  declineAccount: 'This bank account cannot be used. Check the IBAN or choose another payment method.',
  declineBank: 'Your bank declined the payment. Try another card or contact your bank.',
  declineAuthentication: 'The card could not be verified. Try again or use another card.',
  declineRisk: 'This payment could not be accepted. Try another payment method.',
  declineTemporary: 'The payment could not be completed right now. Please try again in a moment.',
  declined: 'The payment was declined. Try another card or payment method.',
};

/** Every English text: the script's own, under the shopper's language and the merchant's overrides. */
export const ENGLISH_TEXTS: Labels & DeclineTexts = { ...ENGLISH_LABELS, ...ENGLISH_DECLINE_TEXTS };
