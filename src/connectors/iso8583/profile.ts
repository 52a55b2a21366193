import { fieldMap, ISO8583_1987_FIELDS, type FieldMap, type FieldSpec, type WireEncoding } from './fields.js';
import type { Framing } from './framing.js';
import type { ResponseCodeRow } from './response-codes.js';
import type { LifecyclePolicy } from '../../domain/lifecycle/policy.js';

/**
 * Everything that differs from one acquirer to the next, as data: the wire format, the message
 * types and processing codes of each operation, where the gateway's reference travels, the
 * response-code overrides, how to reach the host and where its settlement file lies.
 */
export interface AcquirerProfile {
  readonly id: string;
  /** resultDetails.clearingInstituteName */
  readonly clearingInstituteName: string;
  readonly encoding: WireEncoding;
  readonly framing: Framing;
  readonly fields: FieldMap;
  /** Fields masked in traces on top of 2, 14, 35, 45, 52 (the CVV2 field). */
  readonly maskedFields: readonly number[];
  readonly mti: ProfileMtis;
  readonly processingCodes: ProfileProcessingCodes;
  /** Field 70 codes of 0800. */
  readonly networkCodes: { readonly signOn: string; readonly echo: string; readonly signOff: string };
  /** Field 39 rows that replace the standard table's. */
  readonly responseCodes: Readonly<Record<string, ResponseCodeRow>>;
  /** Field 32. */
  readonly acquiringInstitutionId: string;
  /** Field 18. */
  readonly merchantCategoryCode: string;
  /**
   * What the acquirer's contract allows, which the life-cycle rules read through the registry:
   * refunds, reversals and their cut-off (its daily clearing), the authorisation validity for captures.
   */
  readonly policy: LifecyclePolicy;
}

export interface ProfileMtis {
  readonly authorization: string;
  readonly financial: string;
  /** A capture of an authorisation (completion advice). */
  readonly completion: string;
  /** A merchant's reversal (void) of an approved payment. */
  readonly reversal: string;
  /** The gateway's reversal of a request left without answer. */
  readonly reversalAdvice: string;
  readonly reversalAdviceRepeat: string;
  readonly networkManagement: string;
}

export interface ProfileProcessingCodes {
  readonly purchase: string;
  readonly refund: string;
  readonly credit: string;
}

/** Where and how a route's host is reached; part of the configuration, not of the profile's wire format. */
export interface HostEndpoint {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
  /** PEM of a private CA the host's certificate is checked against (the emulator's self-signed one). */
  readonly caPem?: string | undefined;
  /** TLS name to check; the host when absent. */
  readonly serverName?: string | undefined;
}

/** The emulator's profile and the default of a new acquirer: ASCII, two-byte binary length header. */
export const EMULATOR_PROFILE: AcquirerProfile = Object.freeze({
  id: 'acquirer-host-emulator',
  clearingInstituteName: 'Acquirer Host Emulator',
  encoding: 'ascii',
  framing: 'binary2',
  fields: fieldMap(ISO8583_1987_FIELDS),
  maskedFields: [126],
  mti: {
    authorization: '0100',
    financial: '0200',
    completion: '0220',
    reversal: '0400',
    reversalAdvice: '0420',
    reversalAdviceRepeat: '0421',
    networkManagement: '0800',
  },
  processingCodes: { purchase: '000000', refund: '200000', credit: '260000' },
  networkCodes: { signOn: '001', signOff: '002', echo: '301' },
  responseCodes: {},
  acquiringInstitutionId: '00000000001',
  merchantCategoryCode: '5999',
  // The emulator clears once a day and holds authorisations for a week.
  policy: { supportsRefund: true, supportsReversal: true, reversalCutoffMinutes: 24 * 60, captureCutoffMinutes: 7 * 24 * 60, paymentTypes: ['PA', 'DB', 'CD', 'CP', 'RF', 'RV'] as const },
});

/** The same messages in BCD with a binary bitmap: the other common flavour, for tests and acquirers that use it. */
export const EMULATOR_BINARY_PROFILE: AcquirerProfile = Object.freeze({ ...EMULATOR_PROFILE, id: 'acquirer-host-emulator-binary', encoding: 'binary' as const });

/** A profile with some fields redefined (an acquirer whose field 48 is shorter …). */
export function withFields(profile: AcquirerProfile, id: string, changes: readonly FieldSpec[]): AcquirerProfile {
  const specs = [...profile.fields.values()].filter((spec) => !changes.some((c) => c.number === spec.number));
  return Object.freeze({ ...profile, id, fields: fieldMap([...specs, ...changes]) });
}

export const BUILT_IN_PROFILES: readonly AcquirerProfile[] = [EMULATOR_PROFILE, EMULATOR_BINARY_PROFILE];
