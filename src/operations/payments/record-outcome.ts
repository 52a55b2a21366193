import { GatewayError } from '../../results/gateway-error.js';
import { isDatabaseUnavailable } from '../../storage/errors.js';

/**
 * Stores the connector's answer, once the connector was asked. If the database cannot take it
 * (down, failing over, or the write's commit never acknowledged), money may have moved all the
 * same, so the answer must not read as "nothing happened, retry" (503): it is 900.100.300, the
 * outcome uncertain. The payment is not lost: its pending row was committed before the connector
 * was asked, so the resolution job asks the connector for the truth and stores it, and GET or an
 * Idempotency-Key replay answers what the database then holds.
 */
export async function recordOutcome<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    throw new GatewayError('900.100.300', { httpStatus: 504 });
  }
}
