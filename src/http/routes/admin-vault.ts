import type { FastifyInstance } from 'fastify';
import type { FingerprintKind } from '../../domain/vault/index.js';
import { findRegistrationsOfAccount, rotateVaultKey, vaultStatus } from '../../operations/registrations/vault-maintenance.js';
import { GatewayError } from '../../results/gateway-error.js';
import { adminField } from '../admin-fields.js';
import { sendWithEnvelope } from '../reply.js';
import { recordCompletedChange } from '../../operations/audit/audited.js';
import { adminActor } from '../admin-actor.js';

const admin = { config: { auth: 'admin' as const } };
const OK = '000.000.100';
const FINGERPRINT_KINDS: readonly string[] = ['card', 'iban', 'bankAccountNumber', 'tokenAccount'];

/**
 * The vault's maintenance through the running gateway (ADMIN_TOKEN), with the gateway's own keys:
 * status, an online rotation to VAULT_MASTER_KEY, and the registrations of one account number
 * (sent in the body, never the URL, and never answered back).
 */
export function registerVaultAdminRoutes(app: FastifyInstance): void {
  const { storage } = app.gateway;
  const vault = () => app.gateway.payments.vault;
  app.get('/admin/vault/status', admin, async (request, reply) => sendWithEnvelope(request, reply, 200, await vaultStatus(storage, vault()), OK));
  app.post('/admin/vault/rotate-key', admin, async (request, reply) => {
    const report = await rotateVaultKey(storage, vault());
    await recordCompletedChange(app.gateway, adminActor(request), { action: 'vault.rotate-key', target: { kind: 'vault', id: report.currentMasterKeyId }, entityId: null, after: { rewrapped: report.rewrapped, skipped: report.skipped } });
    return sendWithEnvelope(request, reply, 200, report, OK);
  });
  app.post('/admin/vault/find-card', admin, async (request, reply) => {
    const kind = adminField(request.body, 'kind', false) ?? 'card';
    if (!FINGERPRINT_KINDS.includes(kind)) throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'kind', value: kind.slice(0, 32), message: `must be one of ${FINGERPRINT_KINDS.join(', ')}` }] });
    const number = adminField(request.body, 'number', true)!;
    const registrations = await findRegistrationsOfAccount(storage, vault(), kind as FingerprintKind, number);
    return sendWithEnvelope(request, reply, 200, { registrations }, OK);
  });
}
