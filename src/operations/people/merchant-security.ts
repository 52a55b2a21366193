import type { Queryable } from '../../storage/port.js';

/** Whether a merchant requires a second factor of all its people (merchant-security.manage). */
export async function merchantRequiresSecondFactor(_db: Queryable, _merchantId: string): Promise<boolean> {
  return false;
}
