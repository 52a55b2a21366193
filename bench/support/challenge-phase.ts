/**
 * 3-D Secure challenge completion: card payments challenged by the simulated ACS (the
 * simulator's challenge card), then the shopper's answer on the ACS page, each redirect once,
 * each answered 303 to shopperResultUrl after the acquirer was asked.
 */
import type pg from 'pg';
import { formRequest, runPhase, type PhaseResult } from '../load.js';
import { BROWSER } from '../../test/support/three-d-secure.js';
import { CARD_PAYMENT, type Merchant, type PhaseSettings } from './gateway-phases.js';

/** docs/simulator.md: challenged, the choice on the ACS page decides. */
const CHALLENGE_CARD = '4200000000000042';

/** The payments' first answers: pending, with a redirect to the ACS page. */
export function challengeStartPhase(settings: PhaseSettings, merchant: Merchant): Promise<PhaseResult> {
  return runPhase({
    name: 'setup: POST /v1/payments DB, 3-D Secure challenge (not counted)',
    ...settings,
    request: (i) => formRequest('/v1/payments', merchant.accessToken, {
      entityId: merchant.entityId, paymentType: 'DB', ...CARD_PAYMENT, ...BROWSER, 'card.number': CHALLENGE_CARD,
      shopperResultUrl: 'https://shop.example.com/result', merchantTransactionId: `bench-challenge-${i}`,
    }),
  });
}

export async function openChallengeIds(admin: pg.Client, limit = 100_000): Promise<string[]> {
  const { rows } = await admin.query<{ id: string }>(`SELECT id FROM shopper_redirects WHERE state = 'open' AND purpose = 'challenge' ORDER BY created_at LIMIT $1`, [limit]);
  return rows.map((row) => row.id);
}

/** The shopper's code accepted on the ACS page: the payment goes on to the acquirer, 303 back to the shop. */
export async function challengeCompletionPhase(settings: PhaseSettings, redirectIds: readonly string[]): Promise<PhaseResult> {
  const phase = await runPhase({
    name: 'POST ACS page outcome=Y (3-D Secure challenge completion, each answers 303)',
    ...settings,
    amount: redirectIds.length,
    request: (i) => formRequest(`/v1/simulator/acs/${redirectIds[i % redirectIds.length]}`, '', { outcome: 'Y' }),
  });
  return { ...phase, non2xx: phase.requests - (phase.statusCodes['303'] ?? 0) };
}
