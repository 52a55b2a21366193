import type { ChallengeChoice, DirectoryAnswer } from '../../domain/three-d-secure/answers.js';
import type { ThreeDSecureOutcome } from '../../observability/observer.js';

/**
 * gateway_three_d_secure_authentications_total counts each authentication once, when its outcome
 * is known: the directory's answer, or for a challenge the shopper's answer (or its expiry). A
 * challenge under way is in gateway_redirects_total{event="opened"} meanwhile.
 */
export function directoryOutcome(answer: DirectoryAnswer): ThreeDSecureOutcome | undefined {
  switch (answer.kind) {
    case 'frictionless':
      return answer.status === 'A' ? 'attempted' : 'frictionless';
    case 'challenge':
      return undefined;
    case 'not-enrolled':
    case 'not-participating':
      return 'not_enrolled';
    case 'error':
    case 'unavailable':
      return 'error';
    case 'failed':
      return 'failed';
  }
}

/** A challenge's end: passed, the ACS could not authenticate (U), or failed (N, R, cancelled, abandoned, expired). */
export function challengeOutcome(choice: ChallengeChoice | 'expired' | 'abandoned'): ThreeDSecureOutcome {
  if (choice === 'Y') return 'challenge';
  return choice === 'U' ? 'error' : 'failed';
}
