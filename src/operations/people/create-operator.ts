import type { Actor } from '../../domain/access/actor.js';
import { GatewayError } from '../../results/gateway-error.js';
import { createUser } from './create-user.js';
import type { PeopleDeps } from './deps.js';

export interface CreatedOperator {
  readonly userId: string;
  readonly email: string;
  readonly role: string;
  /** Made when no password was given: shown once, changed at the first sign-in. */
  readonly oneTimePassword?: string;
  readonly next: string;
}

/**
 * The operator's tools (command line, admin API) add an operator: they act with every right. The
 * authenticator is enrolled at the first sign-in (every operator role needs one). A refusal is a
 * GatewayError naming the field, as the admin API answers.
 */
export async function createOperator(deps: PeopleDeps, actor: Actor, input: { email: string; role?: string | undefined; password?: string | undefined }): Promise<CreatedOperator> {
  const role = input.role ?? 'operator-admin';
  if (!role.startsWith('operator-')) throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'role', value: role.slice(0, 64), message: 'must be an operator role' }] });
  const result = await createUser(deps, actor, { role: 'operator-admin', merchantId: null }, { email: input.email, role, merchantId: null, password: input.password });
  if (result.kind === 'refused') throw new GatewayError('200.300.404', { parameterErrors: [{ name: result.field, value: result.field === 'password' ? '' : input.email.slice(0, 254), message: result.problem }] });
  return {
    userId: result.userId, email: input.email.trim(), role,
    ...(result.oneTimePassword ? { oneTimePassword: result.oneTimePassword } : {}),
    next: 'Sign in at /console/sign-in; the authenticator app is set up at the first sign-in.',
  };
}
