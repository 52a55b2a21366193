import { resultCode } from '../../../results/catalogue.js';
import { REQUIREMENT_MODES } from '../../../domain/three-d-secure/requirement.js';
import { paymentAfterChallenge, paymentAfterDirectory, standaloneCode, type AuthenticationEnd } from '../../../domain/three-d-secure/outcome-codes.js';
import {
  ANY_OTHER_CARD_ANSWER,
  CHALLENGE_CHOICES,
  DIRECTORY_TEST_CARDS,
  ECI_BY_SCHEME,
  FORCING_RULES,
  THREE_D_SECURE_VERSION,
  directoryStatus,
  eciScheme,
  type EciScheme,
} from './directory.js';
import type { DirectoryAnswer } from '../../three-d-secure.js';
import { SIMULATED_ACS_REFERENCE_NUMBER } from './server.js';

/** The simulator's success code for a standalone authentication after a challenge (flavour INTERNAL). */
const SIMULATOR_SUCCESS_CODE = '000.100.110';

/**
 * Markdown for docs/simulator.md: the 3-D Secure test cards, the forcing parameters, the
 * challenge choices and the requirement modes, rendered from the tables the simulator and the
 * payment rules use, so the page cannot drift from the behaviour.
 */
export function threeDSecureSimulatorDocs(): string {
  return [...cardTable(), '', ...forcingList(), '', ...challengeTable(), '', ...appChannel(), '', ...requirementTable()].join('\n');
}

function cardTable(): string[] {
  return [
    '### 3-D Secure v2 test cards',
    '',
    `Version ${THREE_D_SECURE_VERSION}. "Required" is the entity's 3-D Secure requirement (below) for this payment; without forcing parameters. ` +
      `ECI by scheme: Visa, Amex and others ${eciTriple('other')}; Mastercard and Maestro ${eciTriple('mastercard')} (authenticated, attempted, none). ` +
      '`verificationId` (a 28-character CAVV, derived from `dsTransactionId`, never from the card number) only for status Y and A.',
    '',
    '| Card | Directory answer | Status / ECI | Payment, 3DS required | Payment, not required | POST /v1/threeDSecure |',
    '|---|---|---|---|---|---|',
    ...DIRECTORY_TEST_CARDS.map((card) => cardRow(`\`${card.pan}\` ${card.brand}`, card.pan, card.answer)),
    cardRow('any other card (the no-3DS test cards too)', '4200000000000000', ANY_OTHER_CARD_ANSWER),
  ];
}

function cardRow(label: string, pan: string, answer: DirectoryAnswer): string {
  if (answer.kind === 'challenge') {
    const page = 'pending `000.200.000`, redirect to the challenge page; the choice decides (see Challenge choices)';
    return cells([label, 'challenge', 'chosen on the challenge page', page, page, page]);
  }
  const status = directoryStatus(answer)!;
  const standalone = answer.kind === 'frictionless' ? 'frictionless' : paymentAfterDirectory(answer, true);
  return cells([
    label,
    answer.kind === 'frictionless' ? `frictionless (${answer.status})` : answer.kind,
    `${status} / ${ECI_BY_SCHEME[eciScheme(pan)][status]}`,
    endCell(paymentAfterDirectory(answer, true)),
    endCell(paymentAfterDirectory(answer, false)),
    codeCell(standaloneCode(standalone, SIMULATOR_SUCCESS_CODE)),
  ]);
}

function forcingList(): string[] {
  return [
    '### Forcing 3-D Secure in tests (applied in this order)',
    '',
    '| Parameter | Effect |',
    '|---|---|',
    ...FORCING_RULES.map((rule) => cells([`\`${rule.parameter}\``, rule.effect])),
  ];
}

function challengeTable(): string[] {
  return [
    '### Challenge choices (button `outcome` on the simulated ACS page)',
    '',
    '| outcome | Meaning | Status | ECI Visa, Amex, others / Mastercard | Payment, 3DS required | Payment, not required | POST /v1/threeDSecure |',
    '|---|---|---|---|---|---|---|',
    ...CHALLENGE_CHOICES.map((choice) => {
      const required = paymentAfterChallenge(choice.value, true);
      return cells([
        `\`${choice.value}\``,
        choice.description,
        choice.status,
        `${ECI_BY_SCHEME.other[choice.status]} / ${ECI_BY_SCHEME.mastercard[choice.status]}`,
        endCell(required),
        endCell(paymentAfterChallenge(choice.value, false)),
        codeCell(standaloneCode(required.kind === 'proceed' ? 'challenge-success' : required, SIMULATOR_SUCCESS_CODE)),
      ]);
    }),
  ];
}

function appChannel(): string[] {
  return [
    '### App channel and the amount shown',
    '',
    'With `threeDSecure.deviceInfo` the cards answer as above, but a challenge is no redirect: the pending answer\'s `threeDSecure` carries ' +
      `\`authenticationStatus\` C, \`acsReferenceNumber\` \`${SIMULATED_ACS_REFERENCE_NUMBER}\` and \`acsSignedContent\`, an unsigned compact JWS (\`alg\` \`none\`) whose payload's ` +
      '`acsURL` is the simulated ACS endpoint: post `outcome` there (the choices above) as the SDK\'s native challenge would. ' +
      'The challenge page shows the amount authenticated: `threeDSecure.amount` (in `threeDSecure.currency`), else `risk.amount`, else the payment\'s `amount`.',
  ];
}

function requirementTable(): string[] {
  return [
    '### 3-D Secure requirement of an entity (operator setting)',
    '',
    '| Setting | Meaning |',
    '|---|---|',
    ...REQUIREMENT_MODES.map((mode) => cells([`\`${mode.text}\``, mode.meaning])),
  ];
}

function eciTriple(scheme: EciScheme): string {
  const eci = ECI_BY_SCHEME[scheme];
  return `${eci.Y}, ${eci.A}, ${eci.N}`;
}

function endCell(end: AuthenticationEnd): string {
  if (end.kind === 'refuse') return codeCell(end.code);
  return end.withLiabilityShift ? 'goes on to the acquirer, liability shift' : 'goes on without 3-D Secure';
}

function codeCell(code: string): string {
  return `\`${code}\` ${resultCode(code).description}`;
}

function cells(values: readonly string[]): string {
  return `| ${values.map((value) => value.replace(/\|/g, '\\|')).join(' | ')} |`;
}
