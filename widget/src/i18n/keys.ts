/**
 * The widget's texts: OPPWA's label names where it has one (`cardNumber`, `cvv`, `expiryDate`,
 * `mmyy`, `cardHolder`, `submit`, and the `…Error` names of its errorMessages), so that a
 * merchant's existing `wpwlOptions.labels` and `errorMessages` apply unchanged.
 */
export const LABEL_KEYS = [
  'cardNumber',
  'cvv',
  'expiryDate',
  'mmyy',
  'cardHolder',
  'submit',
  'submitAmount',
  'storedCards',
  'otherCard',
  'accountHolder',
  'iban',
  'bic',
  'country',
  'redirectNote',
  'cardNumberError',
  'brandNotAccepted',
  'cvvError',
  'expiryDateError',
  'expiredError',
  'cardHolderError',
  'requiredError',
  'ibanError',
  'checkoutExpired',
  'paymentFailed',
  'processing',
  'overlayTitle',
  'close',
  'cardMethod',
  'paymentMethods',
] as const;

export type LabelKey = (typeof LABEL_KEYS)[number];
export type Labels = Readonly<Record<LabelKey, string>>;
