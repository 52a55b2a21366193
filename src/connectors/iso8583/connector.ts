import type { Connector, ConnectorCredentials, ConnectorOutcome, PaymentConnectorRequest, ReferencingConnectorRequest, SettlementQuery, SettlementRecord, StatusRequest } from '../connector.js';
import type { LifecyclePolicy } from '../../domain/lifecycle/policy.js';
import type { InitialPaymentType } from '../../domain/transaction.js';
import type { IsoMessage } from './message.js';
import { adviceMessage, adviceOriginal, captureMessage, cardOf, numericCurrency, paymentMessage, refundMessage, reversalMessage, terminalOf, type AdviceOriginal, type ReversalInput, type Terminal } from './messages.js';
import { HOST_DOWN_CODE, NO_ANSWER_CODE, readAnswer, REVERSED_AFTER_TIMEOUT_CODE } from './outcome.js';
import { LinkPool, type PoolEvent } from './pool.js';
import { hostLabel } from './pool-observer.js';
import type { AcquirerProfile, HostEndpoint } from './profile.js';
import type { AdviceResult, ReversalAdviceQueue } from './reversal-advice.js';
import { readSettlement, type SettlementFileOpener } from './settlement-source.js';

export interface Iso8583ConnectorOptions {
  readonly id: string;
  readonly profile: AcquirerProfile;
  readonly endpoint: HostEndpoint;
  /** 000.000.000 for a live acquirer; 000.100.112 for the processor's test platform. */
  readonly successCode: string;
  readonly liveCapable: boolean;
  readonly clock: () => Date;
  readonly policy?: Partial<LifecyclePolicy>;
  readonly poolSize?: number;
  /** A request without answer after this long is unknown (pending) and gets a reversal advice. */
  readonly responseTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
  readonly echoIntervalMs?: number;
  /** The terminal of routes whose credentials name none (the test platform's). */
  readonly defaultTerminal?: Terminal;
  /** Durable advices; without it the status checks alone send them. */
  readonly reversalAdvices?: ReversalAdviceQueue;
  /** Path or URL of the daily settlement file (`{date}` for the day), or an opener; without it no settlement capability. */
  readonly settlementSource?: string | SettlementFileOpener;
  readonly onEvent?: (event: PoolEvent) => void;
  /** Each reversal advice sent, and whether the host acknowledged it (the metrics). */
  readonly onReversalAdvice?: (outcome: 'sent' | 'acknowledged' | 'failed') => void;
  /** Masked hex traces of every message, for debugging a new profile; card data is never in them. */
  readonly onTrace?: (direction: 'sent' | 'received', trace: string) => void;
}

/** The ISO 8583 connector plus what its own job and the bench use. */
export interface Iso8583Connector extends Connector {
  readonly pool: LinkPool;
  /** host:port of the acquirer host: the label of the pool's gauges. */
  readonly host: string;
  readonly profile: AcquirerProfile;
  /** Sends one reversal advice of a request left without answer (0420, or 0421 when repeated). */
  sendReversalAdvice(original: AdviceOriginal, repeat: boolean): Promise<AdviceResult>;
  close(): void;
}

export const ISO8583_DEFAULTS = { poolSize: 4, responseTimeoutMs: 10_000, connectTimeoutMs: 3_000, echoIntervalMs: 30_000 } as const;
const TEST_TERMINAL: Terminal = { terminalId: 'TERM0001', merchantId: 'GATEWAY00000001' };

export function createIso8583Connector(options: Iso8583ConnectorOptions): Iso8583Connector {
  const { profile, clock } = options;
  const responseTimeoutMs = options.responseTimeoutMs ?? ISO8583_DEFAULTS.responseTimeoutMs;
  const pool = new LinkPool({
    profile,
    endpoint: options.endpoint,
    size: options.poolSize ?? ISO8583_DEFAULTS.poolSize,
    connectTimeoutMs: options.connectTimeoutMs ?? ISO8583_DEFAULTS.connectTimeoutMs,
    echoIntervalMs: options.echoIntervalMs ?? ISO8583_DEFAULTS.echoIntervalMs,
    clock,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.onTrace ? { onTrace: options.onTrace } : {}),
  });
  const terminal = (credentials: ConnectorCredentials | undefined): Terminal => terminalOf(credentials, options.defaultTerminal ?? TEST_TERMINAL);

  /** Queues the advice that undoes what the host may have booked; false when it could not be queued. */
  const adviseLater = async (transactionId: string, request: IsoMessage): Promise<boolean> => {
    if (!options.reversalAdvices) return false;
    return options.reversalAdvices.enqueue({ connectorId: options.id, original: adviceOriginal(transactionId, request) }).then(
      () => true,
      () => false,
    );
  };
  const unknown = (resultDetails: Readonly<Record<string, string>> = {}): ConnectorOutcome => ({ kind: 'unknown', code: NO_ANSWER_CODE, resultDetails });

  /**
   * One request, its answer as an outcome. No answer → unknown plus an advice; nothing sent →
   * declined; an answer that may have moved money but not as asked → a rejection plus an advice
   * (unknown when the advice could not be queued, or for a void: the status check sends it again).
   */
  const send = async (transactionId: string, build: (stan: string) => IsoMessage, advise: boolean): Promise<ConnectorOutcome> => {
    const { request, exchange } = await pool.exchange(build, responseTimeoutMs);
    if (exchange.ok) {
      const { outcome, mayHaveMovedMoney } = readAnswer(exchange.answer, request, profile, options.successCode);
      if (!mayHaveMovedMoney) return outcome;
      return advise && (await adviseLater(transactionId, request)) ? outcome : unknown(outcome.resultDetails);
    }
    if (exchange.because === 'not-sent') return { kind: 'declined', code: HOST_DOWN_CODE, resultDetails: { clearingInstituteName: profile.clearingInstituteName }, notProcessed: true };
    if (advise) await adviseLater(transactionId, request);
    return unknown();
  };
  const initial = (operation: InitialPaymentType) => async (request: PaymentConnectorRequest): Promise<ConnectorOutcome> => {
    const card = cardOf(request);
    // This link carries card payments only; a route that sends anything else is misconfigured.
    if (!card) return { kind: 'declined', code: '600.200.500', resultDetails: {} };
    if (!numericCurrency(request.currency)) return { kind: 'declined', code: '800.100.173', resultDetails: {} };
    return send(request.transactionId, (stan) => paymentMessage(operation, request, card, profile, terminal(request.credentials), stan, clock()), true);
  };
  const reverseNow = (request: ReversalInput & { readonly credentials?: ConnectorCredentials | undefined }): Promise<ConnectorOutcome> =>
    // An unanswered void is not advised but sent again by the status check: the host answers a repeat alike.
    send(request.transactionId, (stan) => reversalMessage(request, profile, terminal(request.credentials), stan, clock()), false);

  const sendReversalAdvice = async (original: AdviceOriginal, repeat: boolean): Promise<AdviceResult> => {
    const report = options.onReversalAdvice;
    report?.('sent');
    const result = await pool.exchange((stan) => adviceMessage(original, profile, stan, clock(), repeat), responseTimeoutMs).then(
      ({ exchange }): AdviceResult => (exchange.ok && exchange.answer.fields[39] === '00' ? 'acknowledged' : 'unanswered'),
      (error: unknown) => {
        report?.('failed');
        throw error;
      },
    );
    report?.(result === 'acknowledged' ? 'acknowledged' : 'failed');
    return result;
  };

  return {
    id: options.id,
    // The profile's contract, then what the deployment overrides (REVERSAL_CUTOFF_MINUTES …, through the registry too).
    policy: Object.freeze({ ...profile.policy, ...options.policy }),
    liveCapable: options.liveCapable,
    pool,
    profile,
    host: hostLabel(options.endpoint),
    authorize: initial('PA'),
    debit: initial('DB'),
    credit: initial('CD'),
    capture: (request: ReferencingConnectorRequest) => send(request.transactionId, (stan) => captureMessage(request, profile, terminal(request.credentials), stan, clock()), true),
    refund: (request: ReferencingConnectorRequest) => send(request.transactionId, (stan) => refundMessage(request, profile, terminal(request.credentials), stan, clock()), true),
    reverse: (request: ReferencingConnectorRequest) => reverseNow(request),
    status: (request) => statusOf(request, { sendReversalAdvice, reverseNow, terminal, profile }),
    ...(options.settlementSource ? { settlement: (query: SettlementQuery): AsyncIterable<SettlementRecord> => readSettlement(options.settlementSource!, query) } : {}),
    sendReversalAdvice,
    close: () => pool.close(),
  };
}

interface StatusTools {
  sendReversalAdvice(original: AdviceOriginal, repeat: boolean): Promise<AdviceResult>;
  reverseNow(request: ReversalInput & { readonly credentials?: ConnectorCredentials | undefined }): Promise<ConnectorOutcome>;
  terminal(credentials: ConnectorCredentials | undefined): Terminal;
  readonly profile: AcquirerProfile;
}

/**
 * A transaction of this connector is pending only because its answer never came. A void is sent
 * again (the host answers a repeat as the first); anything else is reversed by advice, and once
 * the host acknowledges it the transaction has ended: declined, "timed out … It was reversed".
 */
async function statusOf(request: StatusRequest, tools: StatusTools): Promise<ConnectorOutcome> {
  if (request.paymentType === 'RV' && request.parent) {
    return tools.reverseNow({ transactionId: request.transactionId, amountMinor: request.amountMinor, currency: request.currency, parent: request.parent, credentials: request.credentials });
  }
  const terminal = tools.terminal(request.credentials);
  const codes = tools.profile.processingCodes;
  const original: AdviceOriginal = {
    transactionId: request.transactionId,
    mti: '',
    processingCode: request.paymentType === 'RF' ? codes.refund : request.paymentType === 'CD' ? codes.credit : codes.purchase,
    amount: request.amountMinor.toString().padStart(12, '0'),
    currency: numericCurrency(request.currency) ?? '000',
    stan: '',
    transmission: '',
    terminalId: terminal.terminalId,
    merchantId: terminal.merchantId,
  };
  const result = await tools.sendReversalAdvice(original, true);
  if (result !== 'acknowledged') return { kind: 'unknown', code: NO_ANSWER_CODE, resultDetails: {} };
  return { kind: 'declined', code: REVERSED_AFTER_TIMEOUT_CODE, resultDetails: { ...request.connectorReferences, AcquirerResponse: '68' } };
}
