/**
 * The connector's own details in a payment's resultDetails. The specification shows them only
 * "when the setting that shows connector details in responses is enabled" (core.md, Payment
 * response parameters): the acquirer's references, its raw response code and the clearing
 * institute's name. ExtendedDescription and MerchantAdviceCode stay: they tell the merchant why
 * a payment ended as it did and what to do next (the schedules' retries read the advice code).
 */
export const CONNECTOR_DETAIL_NAMES: ReadonlySet<string> = new Set([
  'ConnectorTxID1',
  'ConnectorTxID2',
  'ConnectorTxID3',
  'AcquirerResponse',
  'clearingInstituteName',
]);

function hasConnectorDetails(details: unknown): details is Record<string, unknown> {
  if (details === null || typeof details !== 'object') return false;
  for (const name of Object.keys(details)) if (CONNECTOR_DETAIL_NAMES.has(name)) return true;
  return false;
}

/**
 * A payment object as a merchant who hides connector details is shown it: the same object when
 * it has none (no copy), else a copy whose resultDetails lost them (and which has no
 * resultDetails when nothing else was in them). The stored response is never changed.
 */
export function withoutConnectorDetails<T extends Readonly<Record<string, unknown>>>(payment: T): T {
  const details = payment['resultDetails'];
  if (!hasConnectorDetails(details)) return payment;
  const kept = Object.fromEntries(Object.entries(details).filter(([name]) => !CONNECTOR_DETAIL_NAMES.has(name)));
  const copy: Record<string, unknown> = { ...payment };
  if (Object.keys(kept).length > 0) copy['resultDetails'] = kept;
  else delete copy['resultDetails'];
  return copy as T;
}

/** The payment as this merchant is shown it: unchanged when connector details are shown. */
export function paymentForMerchant<T extends Readonly<Record<string, unknown>>>(payment: T, showConnectorDetails: boolean): T {
  return showConnectorDetails ? payment : withoutConnectorDetails(payment);
}
