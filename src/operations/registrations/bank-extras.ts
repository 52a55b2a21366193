import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import type { BankExtras } from './account-data.js';

/** Bank account fields the payment method does not carry but a registration keeps in clear. */
export function bankExtrasOf(request: PaymentRequest): BankExtras {
  const b = request.bankAccount;
  return {
    bankName: b?.bankName,
    mandateDateOfSignature: b?.mandate?.dateOfSignature ? b.mandate.dateOfSignature.toISOString().slice(0, 10) : undefined,
  };
}
