import { isListedLocalReceiver } from './local-receivers.js';
import { isAddressLiteral, judgeAddress, type AddressAllowList, type AddressClass } from './webhook-address.js';

/** The operator's rules for webhook and notificationUrl targets (from the configuration). */
export interface WebhookTargetRules {
  /** The live system sends notifications over TLS only. */
  readonly httpsOnly: boolean;
  /** Addresses allowed although not public (WEBHOOK_ALLOWED_ADDRESSES); empty by default. */
  readonly allowedAddresses: AddressAllowList;
  /** The test system honours an entity's local receivers (domain/local-receivers.ts); the live system never. */
  readonly localReceiversAllowed?: boolean | undefined;
  /** The receiving entity's local receivers, added to the rules of one webhook (withLocalReceivers). */
  readonly localReceivers?: readonly string[] | undefined;
}

/** The rules for one entity's webhook: the operator's, plus the entity's local receivers where the system honours them. */
export function withLocalReceivers(rules: WebhookTargetRules, receivers: readonly string[] | undefined): WebhookTargetRules {
  return rules.localReceiversAllowed && receivers && receivers.length > 0 ? { ...rules, localReceivers: receivers } : rules;
}

/** The URL is one of the entity's local receivers, and the system honours them. */
export function isAllowedLocalReceiver(url: URL, rules: WebhookTargetRules): boolean {
  return rules.localReceiversAllowed === true && isListedLocalReceiver(url, rules.localReceivers ?? []);
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
  // Its addresses are checked at each delivery: loopback only (jobs/checked-target.ts).
  if (isAllowedLocalReceiver(url, rules)) return undefined;
  if (!isAddressLiteral(url.hostname)) return undefined;
  const verdict = judgeAddress(url.hostname, rules.allowedAddresses);
  return verdict.allowed ? undefined : refusedAddressMessage(url.hostname, verdict.addressClass);
}
