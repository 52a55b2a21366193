import type { CardRange, PResMessage } from '../emv3ds/types.js';

/**
 * The directory's card ranges (a PRes) and what they decide for one card, pure: whether the card
 * is enrolled at all, the messageVersion of its AReq, and whether its ACS runs a 3DS Method.
 *
 * EMV 3DS 2.2, 3.1 and 5.1.3: a 3DS server that holds the DS's card ranges sends no AReq for a
 * card in none of them (the card is not enrolled), and the AReq's messageVersion is one both
 * the 3DS server and the card's range (its ACS and the DS) support: the highest such.
 */

/** The versions this gateway's 3DS server speaks (the message layer's), lowest first. */
export const SUPPORTED_VERSIONS = ['2.2.0', '2.3.1'] as const;
export type SupportedVersion = (typeof SUPPORTED_VERSIONS)[number];

/** One range as the connector keeps it: bounds as integers, the versions the range allows. */
export interface KnownRange {
  readonly start: bigint;
  readonly end: bigint;
  /** The range's digits: a card of another length is not in it. */
  readonly length: number;
  /** The versions both the range's ACS and the DS support, of those the gateway speaks. */
  readonly versions: readonly SupportedVersion[];
  readonly threeDSMethodURL?: string | undefined;
  readonly acsInfoInd?: readonly string[] | undefined;
}

/** What the ranges decide for a card. */
export type RangeDecision =
  /** The card is in a range: its AReq has this version; the method URL where its ACS has one. */
  | { readonly kind: 'enrolled'; readonly messageVersion: SupportedVersion; readonly threeDSMethodURL?: string | undefined }
  /** In no range: not enrolled, no AReq (as an ARes U with reason 13 would say). */
  | { readonly kind: 'not-enrolled' }
  /** In a range, but none of its versions is one the gateway speaks: no AReq can be understood. */
  | { readonly kind: 'no-common-version' };

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function within(version: string, start: string | undefined, end: string | undefined): boolean {
  if (start === undefined || end === undefined) return false;
  return compareVersions(version, start) >= 0 && compareVersions(version, end) <= 0;
}

/**
 * The versions a range allows, of the gateway's: 2.3.1's list (acsProtocolVersions, with the
 * PRes's dsProtocolVersions) where the range has one, else the start/end pairs of 2.2.0; the DS's
 * pair of the range, else of the PRes. A version the DS does not name is not allowed.
 */
export function versionsOfRange(range: CardRange, pres: Pick<PResMessage, 'dsStartProtocolVersion' | 'dsEndProtocolVersion' | 'dsProtocolVersions'>): readonly SupportedVersion[] {
  const dsStart = range.dsStartProtocolVersion ?? pres.dsStartProtocolVersion;
  const dsEnd = range.dsEndProtocolVersion ?? pres.dsEndProtocolVersion;
  const dsAllows = (v: string) => (pres.dsProtocolVersions ? pres.dsProtocolVersions.includes(v) : within(v, dsStart, dsEnd));
  const acsAllows = (v: string) => (range.acsProtocolVersions ? range.acsProtocolVersions.some((p) => p.version === v) : within(v, range.acsStartProtocolVersion, range.acsEndProtocolVersion));
  return SUPPORTED_VERSIONS.filter((v) => acsAllows(v) && dsAllows(v));
}

/** The method URL of a range: 2.2.0's field, else the 2.3.1 list's entry of the version picked. */
function methodUrlOf(range: CardRange, version: SupportedVersion | undefined): string | undefined {
  if (range.threeDSMethodURL) return range.threeDSMethodURL;
  return range.acsProtocolVersions?.find((p) => p.version === version)?.threeDSMethodURL;
}

/**
 * The ranges of a PRes, as the connector keeps them. actionInd D (delete) ranges are left out:
 * the gateway always asks for the whole list (a PReq without serialNum), so a D has nothing to
 * delete; A and M (add, modify) and no actionInd are ranges. A bound that is no digit string is
 * skipped rather than trusted.
 */
export function rangesOfPRes(pres: PResMessage): readonly KnownRange[] {
  const known: KnownRange[] = [];
  for (const range of pres.cardRangeData ?? []) {
    if (range.actionInd === 'D') continue;
    if (!/^\d{13,19}$/.test(range.startRange) || !/^\d{13,19}$/.test(range.endRange) || range.startRange.length !== range.endRange.length) continue;
    const versions = versionsOfRange(range, pres);
    known.push({
      start: BigInt(range.startRange),
      end: BigInt(range.endRange),
      length: range.startRange.length,
      versions,
      threeDSMethodURL: methodUrlOf(range, versions.at(-1)),
      acsInfoInd: range.acsInfoInd,
    });
  }
  return known;
}

/** The range of a card (the first one that holds it), and what it decides. */
export function decideForCard(ranges: readonly KnownRange[], pan: string): RangeDecision {
  if (!/^\d+$/.test(pan)) return { kind: 'not-enrolled' };
  const number = BigInt(pan);
  const range = ranges.find((r) => r.length === pan.length && number >= r.start && number <= r.end);
  if (!range) return { kind: 'not-enrolled' };
  const messageVersion = range.versions.at(-1);
  if (!messageVersion) return { kind: 'no-common-version' };
  return { kind: 'enrolled', messageVersion, ...(range.threeDSMethodURL ? { threeDSMethodURL: range.threeDSMethodURL } : {}) };
}
