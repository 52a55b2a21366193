import type { PaymentDeps } from '../deps.js';

/** Registrations use what payments use; the vault is part of the payment deps. */
export type RegistrationDeps = PaymentDeps;
