/** What an abandoned redirect ends its payment with. */
export const EXPIRY_CODES = {
  /** "Uncertain status - probably cancelled by user": the shopper never came back from the provider. */
  provider: '100.396.104',
  /** "The authentication is cancelled or abandoned". */
  challenge: '100.390.124',
} as const;
