import { validateRequest, type EndpointRequest } from '../../catalogue/index.js';
import { GatewayError, type ParameterError } from '../../results/gateway-error.js';

/**
 * What every run of a schedule sends, kept as wire parameters and validated again at each run
 * as a payment with the registration (so a run is exactly what the API would accept).
 */
const RUN_PARAMETER = /^(amount|currency|paymentType|descriptor|merchantTransactionId|testMode|standingInstruction\.[a-zA-Z]+)$/;
const WRONG_RECURRING_DATA = '600.200.501';

/**
 * The run parameters of a schedule request. Runs are merchant-initiated REPEATED payments of a
 * RECURRING series (unless the request names another type): a request saying otherwise is refused.
 */
export function runRequestOf(wire: Readonly<Record<string, string>>): Record<string, string> {
  const run: Record<string, string> = {};
  for (const [name, value] of Object.entries(wire)) if (RUN_PARAMETER.test(name)) run[name] = value;
  const wrong: ParameterError[] = [];
  const refuse = (name: string, message: string) => wrong.push({ name, value: run[name] ?? '', message });
  if (run['standingInstruction.mode'] !== undefined && run['standingInstruction.mode'] !== 'REPEATED') refuse('standingInstruction.mode', 'must be REPEATED: scheduled runs follow the initial payment');
  if (run['standingInstruction.source'] !== undefined && run['standingInstruction.source'] !== 'MIT') refuse('standingInstruction.source', 'must be MIT: scheduled runs are merchant-initiated');
  // Both named in one answer when both are wrong.
  if (wrong.length > 0) throw new GatewayError(WRONG_RECURRING_DATA, { parameterErrors: wrong });
  return { ...run, 'standingInstruction.type': run['standingInstruction.type'] ?? 'RECURRING', 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT' };
}

/** A run's payment request, as POST /v1/registrations/{id}/payments would have it. */
export function runPaymentRequest(entityId: string, run: Readonly<Record<string, string>>, now: Date): EndpointRequest<'registrationPayment'> {
  const result = validateRequest('registrationPayment', { entityId, ...run }, { now });
  if (!result.ok) throw new GatewayError(result.code, { parameterErrors: result.parameterErrors });
  return result.request;
}
