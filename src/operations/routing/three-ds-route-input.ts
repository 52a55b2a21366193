import { PEM_CREDENTIAL_MAX, PEM_CREDENTIALS, threeDsRouteProblems } from '../../connectors/emv3ds-server/route-settings.js';
import { GatewayError } from '../../results/gateway-error.js';
import { checkCredentials } from './route-input.js';

/**
 * A 3DS server route's credentials (connectors/emv3ds-server/route-settings.ts): the usual checks,
 * with room for PEM text in the certificate credentials, then every problem of the settings at
 * once, by credential name; a value is never shown back.
 */
export function checkThreeDsRouteCredentials(raw: Readonly<Record<string, unknown>>): Record<string, string> {
  const credentials = checkCredentials(raw, { names: PEM_CREDENTIALS, maxLength: PEM_CREDENTIAL_MAX });
  const problems = threeDsRouteProblems(credentials);
  if (problems.length > 0) {
    throw new GatewayError('200.300.404', { parameterErrors: problems.map((problem) => ({ name: `credentials[${problem.name}]`, value: '', message: problem.message })) });
  }
  return credentials;
}
