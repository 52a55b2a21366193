/** A gateway process on a PostgreSQL schema of its own, with a merchant and parents to refund. */
import { startGatewayProcess } from '../../../bench/support/gateway.js';
import type { NodeProcess } from '../../../bench/support/node-process.js';
import { createBenchSchema, createMerchant, type BenchSchema } from '../../../bench/support/postgres.js';
import type { Merchant } from './payment-load.js';

export const SUCCESS_CODE = /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/;

export interface FaultStage {
  readonly schema: BenchSchema;
  readonly merchant: Merchant;
  gateway: NodeProcess;
  close(): Promise<void>;
}

/**
 * `databaseUrlFor` lets a test route the gateway through a proxy; migrations and the merchant
 * go straight to the server. The first gateway process runs the migrations.
 */
export async function openStage(url: string, prefix: string, databaseUrlFor: (schemaUrl: string) => string = (u) => u, env: Readonly<Record<string, string>> = {}): Promise<FaultStage> {
  const schema = await createBenchSchema(prefix, url);
  let gateway: NodeProcess | undefined;
  try {
    gateway = await startGatewayProcess({ databaseUrl: databaseUrlFor(schema.url), env });
    const merchant = await createMerchant(schema.url, 'Fault shop');
    const stage: FaultStage = {
      schema,
      merchant,
      gateway,
      async close() {
        await stage.gateway.stop('SIGKILL');
        await schema.drop();
      },
    };
    return stage;
  } catch (error) {
    await gateway?.stop('SIGKILL');
    await schema.drop();
    throw error;
  }
}

export async function createPayment(gatewayUrl: string, merchant: Merchant, amount: string, expected = 200): Promise<string> {
  const response = await fetch(`${gatewayUrl}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      entityId: merchant.entityId, paymentType: 'DB', amount, currency: 'EUR',
      paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123',
    }),
  });
  const body = (await response.json()) as { id?: string };
  if (response.status !== expected || !body.id) throw new Error(`payment failed: ${response.status} ${JSON.stringify(body)}`);
  return body.id;
}

export function testDatabaseUrl(): string | undefined {
  return process.env['TEST_DATABASE_URL'] || undefined;
}
