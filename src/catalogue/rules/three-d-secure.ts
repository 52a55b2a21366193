import { DEFAULT_CODE } from '../define.js';
import { violation, type ConditionalRule } from './types.js';

/** 3-D Secure rules the catalogue can decide from the request alone. */

export const NF_USE_CASE = 'threeDSecure.schemeData[NF-USECASE]';

/** Where docs/api.md explains the condition; the refusal points there. */
export const SCHEME_DATA_DOCS = 'docs/api.md#app-channel-and-scheme-data';

/** Network F's other scheme data: sending it says the authentication goes to network F's directory. */
const NETWORK_F_DATA: readonly string[] = ['threeDSecure.schemeData[NF-ITEMSNB]', 'threeDSecure.schemeData[NF-SCORE_MERCHANT]'];

/** EMV threeDSRequestorAuthenticationInd 02 (recurring) and 03 (instalment), by the catalogue's names. */
const NPA_INDICATORS_NEEDING_USE_CASE: readonly string[] = ['RECURRING', 'INSTALLMENT'];

/**
 * The specification's condition on NF-USECASE: "required when message category is PA, or NPA with
 * requestor authentication indicator 02 or 03". The message category is NPA when threeDSecure.npa
 * is true, PA otherwise. The specification names no card brand as network F, so the rule applies
 * where the request itself addresses network F: it sends network F's other scheme data.
 */
export const networkFUseCaseRequired: ConditionalRule = {
  id: 'networkFUseCaseRequired',
  description:
    'threeDSecure.schemeData[NF-USECASE] is required with network F scheme data (schemeData[NF-ITEMSNB] or [NF-SCORE_MERCHANT]) when the message category is PA (threeDSecure.npa not true), or NPA with threeDSecure.authenticationInd RECURRING (02) or INSTALLMENT (03).',
  codes: [DEFAULT_CODE],
  check(context) {
    if (context.has(NF_USE_CASE) || !NETWORK_F_DATA.some((name) => context.has(name))) return [];
    const nonPayment = context.value('threeDSecure.npa') === 'true';
    const indicator = context.value('threeDSecure.authenticationInd');
    if (nonPayment && !NPA_INDICATORS_NEEDING_USE_CASE.includes(indicator ?? '')) return [];
    const why = nonPayment ? `a non-payment authentication with authenticationInd ${indicator}` : 'a payment authentication (message category PA)';
    return [violation(NF_USE_CASE, DEFAULT_CODE, `is required with network F scheme data for ${why} (${SCHEME_DATA_DOCS})`)];
  },
};
