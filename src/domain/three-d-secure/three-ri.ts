/**
 * 3DS Requestor Initiated authentication (3RI, deviceChannel 03, issue 37): the merchant
 * authenticates a payment the shopper is not present for, on the strength of an earlier
 * authentication. Pure rules: when a payment asks for it, and the AReq's threeRIInd.
 */

/** EMV 3DS 2.2, Table A.1, threeRIInd: the values a payment of this gateway can say. */
export const THREE_RI_INDICATOR = {
  RECURRING: '01',
  INSTALLMENT: '02',
  SPLIT_SHIPMENT: '06',
  DELAYED_SHIPMENT: '06',
  OTHER_PAYMENT: '11',
} as const;

export interface ThreeRiFacts {
  /** threeDSecure.threeRIInd */
  readonly threeRIInd?: 'RECURRING' | 'SPLIT_SHIPMENT' | 'DELAYED_SHIPMENT' | undefined;
  /** threeDSecure.channel (N2): "only to flag a merchant-initiated (3RI) authentication" (spec). */
  readonly channel?: string | undefined;
  /** standingInstruction.type, where the payment has one. */
  readonly standingInstructionType?: 'UNSCHEDULED' | 'INSTALLMENT' | 'RECURRING' | undefined;
}

/** 3RI is asked for by threeDSecure.threeRIInd or threeDSecure.channel 03 (EMV's deviceChannel for 3RI). */
export function asksForThreeRi(facts: ThreeRiFacts): boolean {
  return facts.threeRIInd !== undefined || facts.channel === '03';
}

/**
 * The AReq's threeRIInd: the request's threeDSecure.threeRIInd (split and delayed shipments are
 * both EMV's 06 "split/delayed shipment"), else the standing instruction's type (RECURRING 01,
 * INSTALLMENT 02), else 11 "other payment" (an UNSCHEDULED series or none).
 */
export function threeRiIndicator(facts: ThreeRiFacts): string {
  if (facts.threeRIInd) return THREE_RI_INDICATOR[facts.threeRIInd];
  if (facts.standingInstructionType === 'RECURRING') return THREE_RI_INDICATOR.RECURRING;
  if (facts.standingInstructionType === 'INSTALLMENT') return THREE_RI_INDICATOR.INSTALLMENT;
  return THREE_RI_INDICATOR.OTHER_PAYMENT;
}

/** threeDSRequestorPriorAuthenticationInfo: the earlier authentication a 3RI rests on (EMV 3DS 2.2, Table A.1). */
export interface PriorAuthentication {
  /** The earlier authentication's acsTransID (threeDSReqPriorRef). */
  readonly acsTransactionId: string;
  /** Its dsTransID: the data that documents it (threeDSReqPriorAuthData). */
  readonly dsTransactionId?: string | undefined;
  /** Frictionless (01) or challenged (02): threeDSReqPriorAuthMethod. */
  readonly challenged: boolean;
  readonly at: Date;
}

/** The AReq's threeDSRequestorPriorAuthenticationInfo object. */
export function priorAuthenticationInfo(prior: PriorAuthentication): Record<string, string> {
  return {
    threeDSReqPriorAuthMethod: prior.challenged ? '02' : '01',
    threeDSReqPriorAuthTimestamp: prior.at.toISOString().replace(/[-:T]/g, '').slice(0, 12),
    threeDSReqPriorRef: prior.acsTransactionId,
    ...(prior.dsTransactionId ? { threeDSReqPriorAuthData: prior.dsTransactionId } : {}),
  };
}
