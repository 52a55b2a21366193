import type { PeopleDeps } from './deps.js';
import { createUser } from './create-user.js';
import { newOneTimePassword } from './passwords.js';

export const DEMO_CONSOLE_EMAIL = 'demo@example.com';

/**
 * On the test system, the demo merchant made at the first `npm start` gets a console person too
 * (its admin), so a newcomer can sign in at once. A password of its own (not a one-time one: this
 * is the test system, and nobody else knows it); no second factor unless the merchant requires one.
 */
export async function ensureDemoConsoleUser(deps: Pick<PeopleDeps, 'storage' | 'clock' | 'ids'>, merchantId: string): Promise<{ email: string; password: string } | undefined> {
  const password = newOneTimePassword();
  const result = await createUser(deps, { kind: 'system', reason: 'demo merchant' }, { role: 'operator-admin', merchantId: null }, { email: DEMO_CONSOLE_EMAIL, role: 'merchant-admin', merchantId, password });
  return result.kind === 'created' ? { email: DEMO_CONSOLE_EMAIL, password } : undefined;
}
