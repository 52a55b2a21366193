import type {
  Connector,
  ConnectorOutcome,
  PaymentConnectorRequest,
  ReferencingConnectorRequest,
  SchemeReferenceStore,
} from '../connector.js';
import type { LifecyclePolicy } from '../../domain/lifecycle/policy.js';
import type { InitialPaymentType, ReferencingPaymentType } from '../../domain/transaction.js';
import { paymentInput, referencingInput, type SimulatorInput } from './input.js';
import { buildOutcome } from './outcome.js';
import { matchSimulatorRow } from './rules.js';
import { simulatedStatus } from './status.js';
import { isProviderPayment, providerCompletion, providerLaterAnswer, providerRedirect } from './provider.js';
import { EXTERNAL_TEST_PLATFORM, INTERNAL_SIMULATOR, type SimulatorFlavour } from './tables.js';
import { CHARGEBACK_REFERENCE } from './settlement/rules.js';
import { simulatedSettlement, type SettlementTransactionSource } from './settlement/settlement-feed.js';

export interface SimulatorDependencies {
  readonly clock: { now(): Date };
  /** The simulated acquirer's transaction ids; the gateway's id generator. */
  readonly newId: () => string;
  /** When given, merchant-initiated payments must name a scheme id the gateway handed out. */
  readonly schemeReferences?: SchemeReferenceStore;
  readonly policy?: Partial<LifecyclePolicy>;
  /** With it, the simulator delivers daily settlement files of what it processed (docs/settlement.md). */
  readonly settlementSource?: SettlementTransactionSource;
}

const MINUTES_PER_DAY = 24 * 60;

/**
 * The simulator's own policy: voids until one day after the original (the daily clearing of
 * the simulated acquirer), captures within seven days (the simulated authorisation validity).
 */
export const SIMULATOR_POLICY: LifecyclePolicy = Object.freeze({
  supportsRefund: true,
  supportsReversal: true,
  reversalCutoffMinutes: MINUTES_PER_DAY,
  captureCutoffMinutes: 7 * MINUTES_PER_DAY,
});

/** The internal simulator (testMode INTERNAL or absent): answers from docs/simulator.md, 000.100.110 on success. */
export function createSimulatorConnector(dependencies: SimulatorDependencies): Connector {
  return createFlavouredSimulator(INTERNAL_SIMULATOR, dependencies);
}

/** Stub of a processor's test platform (testMode EXTERNAL): the same table, 000.100.112 on success. */
export function createExternalTestPlatformConnector(dependencies: SimulatorDependencies): Connector {
  return createFlavouredSimulator(EXTERNAL_TEST_PLATFORM, dependencies);
}

function createFlavouredSimulator(flavour: SimulatorFlavour, dependencies: SimulatorDependencies): Connector {
  const { clock, newId, schemeReferences } = dependencies;
  const decide = (input: SimulatorInput): ConnectorOutcome => {
    const row = matchSimulatorRow(input);
    if (!row) return { kind: 'unknown', code: '900.100.203', resultDetails: {} };
    return buildOutcome(row, input, { flavour, generatedId: newId() });
  };
  const initial = (operation: InitialPaymentType) => async (request: PaymentConnectorRequest) =>
    request.method.kind === 'asynchronous'
      ? providerRedirect(request, flavour, newId())
      : remembered(request, decide(await paymentInput(operation, request, clock.now(), schemeReferences)));
  const { settlementSource } = dependencies;
  const referencing = (operation: ReferencingPaymentType) => async (request: ReferencingConnectorRequest) =>
    decide(referencingInput(operation, request, clock.now(), flavour.referencePrefix));
  return {
    id: flavour.connectorId,
    policy: Object.freeze({ ...SIMULATOR_POLICY, ...dependencies.policy }),
    // A simulator only pretends to move money: the live system never routes to it.
    liveCapable: false,
    status: async (request) => (isProviderPayment(request) ? providerLaterAnswer(request, flavour, false) : simulatedStatus(request, flavour, newId())),
    // Only a provider's payment waits for its shopper; anything else has nothing to cancel, and its status says what became of it.
    cancel: async (request) => (isProviderPayment(request) ? providerLaterAnswer(request, flavour, true) : simulatedStatus(request, flavour, newId())),
    complete: async (request) => providerCompletion(request, flavour),
    authorize: initial('PA'),
    debit: initial('DB'),
    credit: initial('CD'),
    capture: referencing('CP'),
    refund: referencing('RF'),
    reverse: referencing('RV'),
    ...(settlementSource ? { settlement: (query) => simulatedSettlement(flavour, settlementSource, query) } : {}),
  };
}

/**
 * A stateless simulator remembers a payment's chargebackResultCode the only way it can: among the
 * references it answers, which the gateway stores and hands back to its settlement.
 */
function remembered(request: PaymentConnectorRequest, outcome: ConnectorOutcome): ConnectorOutcome {
  if (request.chargebackResultCode === undefined || outcome.kind !== 'success') return outcome;
  return { ...outcome, resultDetails: { ...outcome.resultDetails, [CHARGEBACK_REFERENCE]: request.chargebackResultCode } };
}
