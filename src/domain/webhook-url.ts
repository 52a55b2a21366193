import { isAddressLiteral, judgeAddress, type AddressAllowList, type AddressClass } from './webhook-address.js';

/** The operator's rules for webhook and notificationUrl targets (from the configuration). */
export interface WebhookTargetRules {
  /** The live system sends notifications over TLS only. */
  readonly httpsOnly: boolean;
  /** Addresses allowed although not public (WEBHOOK_ALLOWED_ADDRESSES); empty by default. */
  readonly allowedAddresses: AddressAllowList;
}

const CLASS_NAMES: Readonly<Record<AddressClass, string>> = {
  public: 'a public',
  loopback: 'a loopback',
  unspecified: 'an unspecified',
  private: 'a private',
  linkLocal: 'a link-local',
  carrierGradeNat: 'a shared (carrier-grade NAT)',
  multicast: 'a multicast',
  broadcast: 'a broadcast',
  documentation: 'a documentation',
  metadata: 'a cloud metadata',
  reserved: 'a reserved',
  notAnAddress: 'an invalid',
};

/** Why an address is refused, in the words that parameterErrors and attempts show. */
export function refusedAddressMessage(address: string, addressClass: AddressClass): string {
  return `${address} is ${CLASS_NAMES[addressClass]} address; webhooks go to public addresses only`;
}

/**
 * What is wrong with a webhook target URL, or undefined when nothing can be said before sending.
 * A host name is judged at each delivery, by the addresses it resolves to then (DNS can change);
 * an address written in the URL is judged here.
 */
export function webhookUrlProblem(raw: string, rules: WebhookTargetRules): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http or https URL';
  if (rules.httpsOnly && url.protocol !== 'https:') return 'must be an https URL on the live system';
  if (url.hostname === '') return 'must be an absolute http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password (user:password@)';
  if (!isAddressLiteral(url.hostname)) return undefined;
  const verdict = judgeAddress(url.hostname, rules.allowedAddresses);
  return verdict.allowed ? undefined : refusedAddressMessage(url.hostname, verdict.addressClass);
}
