/**
 * 3-D Secure challenge completion: card payments challenged by the simulated ACS (the
 * simulator's challenge card), then the shopper's answer on the ACS page, each redirect once,
 * each answered 303 to shopperResultUrl after the acquirer was asked.
 */
import { formRequest, runPhase, type PhaseResult } from '../load.js';
import { BROWSER } from '../../test/support/three-d-secure.js';
import { CARD_PAYMENT, redirectChoicePhase, type Merchant, type PhaseSettings } from './gateway-phases.js';

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

/** The shopper's code accepted on the ACS page: the payment goes on to the acquirer, 303 back to the shop. */
export function challengeCompletionPhase(settings: PhaseSettings, redirectIds: readonly string[]): Promise<PhaseResult> {
  return redirectChoicePhase('POST ACS page outcome=Y (3-D Secure challenge completion, each answers 303)', settings, '/v1/simulator/acs', 'Y', redirectIds);
}
