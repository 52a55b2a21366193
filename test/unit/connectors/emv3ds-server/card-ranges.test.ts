/**
 * The directory's card ranges (connectors/emv3ds-server/card-ranges.ts, card-range-cache.ts): the
 * version each range allows (a table of cases, both PRes forms), the decision for a card, and the
 * cache's PReq: asked once at start, shared by concurrent lookups, refreshed after the interval,
 * retried after a failure while the ranges already known stay in use.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CardRangeCache, RETRY_AFTER_FAILURE_MS } from '../../../../src/connectors/emv3ds-server/card-range-cache.js';
import { decideForCard, rangesOfPRes, versionsOfRange } from '../../../../src/connectors/emv3ds-server/card-ranges.js';
import { areqVersionOf } from '../../../../src/connectors/emv3ds-server/server.js';
import type { CardRange, PResMessage } from '../../../../src/connectors/emv3ds/types.js';
import { validate } from '../../../../src/connectors/emv3ds/validate.js';

const RANGE = { startRange: '4000000000001000', endRange: '4000000000001099' };
const DS_BOTH = { dsStartProtocolVersion: '2.2.0', dsEndProtocolVersion: '2.3.1' };

describe('the version a range allows: the highest both ends and the gateway speak', () => {
  const cases: ReadonlyArray<readonly [string, Partial<CardRange>, Partial<PResMessage>, readonly string[]]> = [
    ['ACS 2.2.0-2.3.1, DS 2.2.0-2.3.1', { acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.3.1' }, DS_BOTH, ['2.2.0', '2.3.1']],
    ['ACS 2.2.0 only', { acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.2.0' }, DS_BOTH, ['2.2.0']],
    ['ACS 2.1.0-2.2.0 (2.1.0 not spoken by the gateway)', { acsStartProtocolVersion: '2.1.0', acsEndProtocolVersion: '2.2.0' }, DS_BOTH, ['2.2.0']],
    ['ACS 2.3.1 only', { acsStartProtocolVersion: '2.3.1', acsEndProtocolVersion: '2.3.1' }, DS_BOTH, ['2.3.1']],
    ['ACS 2.1.0 only: none in common', { acsStartProtocolVersion: '2.1.0', acsEndProtocolVersion: '2.1.0' }, DS_BOTH, []],
    ['DS 2.2.0 only limits an ACS of both', { acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.3.1' }, { dsStartProtocolVersion: '2.1.0', dsEndProtocolVersion: '2.2.0' }, ['2.2.0']],
    ['the range\'s own DS versions win over the PRes\'s', { acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.3.1', dsStartProtocolVersion: '2.3.1', dsEndProtocolVersion: '2.3.1' }, DS_BOTH, ['2.3.1']],
    ['ACS 2.2.0-2.4.0 (a later version the gateway does not speak)', { acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.4.0' }, DS_BOTH, ['2.2.0', '2.3.1']],
    ['2.3.1 lists: acsProtocolVersions and dsProtocolVersions', { acsProtocolVersions: [{ version: '2.2.0' }, { version: '2.3.1' }] }, { dsProtocolVersions: ['2.2.0'] }, ['2.2.0']],
    ['no DS versions at all: none', { acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.3.1' }, {}, []],
  ];
  for (const [name, range, pres, expected] of cases) {
    it(name, () => assert.deepEqual(versionsOfRange({ ...RANGE, ...range }, pres), expected));
  }
});

function pres(ranges: readonly CardRange[], extra: Partial<PResMessage> = {}): PResMessage {
  return { messageType: 'PRes', messageVersion: '2.2.0', threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e', serialNum: '1', ...DS_BOTH, cardRangeData: ranges, ...extra };
}

describe('what the ranges decide for a card', () => {
  const known = rangesOfPRes(pres([
    { ...RANGE, acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.3.1' },
    { startRange: '4000000000002000', endRange: '4000000000002099', acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.2.0', threeDSMethodURL: 'https://acs.example/method' },
    { startRange: '4000000000003000', endRange: '4000000000003099', acsStartProtocolVersion: '2.1.0', acsEndProtocolVersion: '2.1.0' },
    { startRange: '4000000000004000', endRange: '4000000000004099', actionInd: 'D', acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.3.1' },
    { startRange: '5100000000000000', endRange: '5199999999999999', acsProtocolVersions: [{ version: '2.3.1', threeDSMethodURL: 'https://acs.example/m231' }] },
  ]));
  const cases: ReadonlyArray<readonly [string, string, ReturnType<typeof decideForCard>]> = [
    ['a card of a range of both versions: 2.3.1, no method', '4000000000001050', { kind: 'enrolled', messageVersion: '2.3.1' }],
    ['a range bound is in the range', '4000000000001099', { kind: 'enrolled', messageVersion: '2.3.1' }],
    ['a 2.2.0 ACS with a method URL', '4000000000002000', { kind: 'enrolled', messageVersion: '2.2.0', threeDSMethodURL: 'https://acs.example/method' }],
    ['2.3.1\'s list names the method URL per version', '5100000000000008', { kind: 'enrolled', messageVersion: '2.3.1', threeDSMethodURL: 'https://acs.example/m231' }],
    ['a card in no range: not enrolled', '4111111111111111', { kind: 'not-enrolled' }],
    ['a card just past a range: not enrolled', '4000000000001100', { kind: 'not-enrolled' }],
    ['a card of another length: not enrolled', '400000000000105', { kind: 'not-enrolled' }],
    ['a range marked D (delete) is no range', '4000000000004000', { kind: 'not-enrolled' }],
    ['a range of no version the gateway speaks', '4000000000003000', { kind: 'no-common-version' }],
  ];
  for (const [name, pan, expected] of cases) {
    it(name, () => assert.deepEqual(decideForCard(known, pan), expected));
  }
  it('the AReq says U without a method URL, N with one where the method did not run, N without ranges (method.test.ts has the whole rule)', () => {
    assert.deepEqual(areqVersionOf({ kind: 'enrolled', messageVersion: '2.3.1' }), { messageVersion: '2.3.1', threeDSCompInd: 'U' });
    assert.deepEqual(areqVersionOf({ kind: 'enrolled', messageVersion: '2.2.0', threeDSMethodURL: 'https://acs.example/method' }), { messageVersion: '2.2.0', threeDSCompInd: 'N' });
    assert.deepEqual(areqVersionOf(undefined), { threeDSCompInd: 'N' });
  });
});

describe('the card-range cache', () => {
  function setup(answers: Array<(preq: Record<string, string>) => Response | Promise<Response>>) {
    let now = 0;
    const sent: Record<string, string>[] = [];
    const warnings: object[] = [];
    const cache = new CardRangeCache({
      preqUrl: 'http://ds.example/preq', refreshMs: 3_600_000, timeoutMs: 1_000, serverReferenceNumber: 'REF',
      clock: { now: () => new Date(now) }, newTransId: () => `8a880dc0-d2d2-4067-bcb1-b08d1690b2${String(sent.length).padStart(2, '0')}`,
      logger: { info: () => undefined, warn: (fields) => warnings.push(fields) },
      fetch: async (_url, init) => {
        const preq = JSON.parse(String(init?.body)) as Record<string, string>;
        sent.push(preq);
        return answers.shift()!(preq);
      },
    });
    return { cache, sent, warnings, advance: (ms: number) => { now += ms; } };
  }
  const ok = (preq: Record<string, string>) => new Response(JSON.stringify(pres([{ ...RANGE, acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.2.0' }], { threeDSServerTransID: preq['threeDSServerTransID']! })));

  it('sends a valid PReq without serial number at start; concurrent lookups share it; the next one after the interval', async () => {
    const { cache, sent, advance } = setup([ok, ok]);
    cache.warm();
    const [a, b] = await Promise.all([cache.decide('4000000000001000'), cache.decide('4111111111111111')]);
    assert.deepEqual([a, b], [{ kind: 'enrolled', messageVersion: '2.2.0' }, { kind: 'not-enrolled' }]);
    assert.equal(sent.length, 1);
    assert.ok(validate(sent[0]!, 'PReq').ok);
    assert.equal(sent[0]!['serialNum'], undefined);
    advance(3_599_000);
    await cache.decide('4000000000001000');
    assert.equal(sent.length, 1);
    advance(1_000);
    await cache.decide('4000000000001000');
    assert.equal(sent.length, 2);
  });
  it('no PRes (an Erro, HTTP 500, a foreign PRes): unknown ranges, a warning, retried after a minute; known ranges stay', async () => {
    const erro = () => new Response(JSON.stringify({ messageType: 'Erro', messageVersion: '2.2.0', errorCode: '402', errorComponent: 'D', errorDescription: 'x', errorDetail: 'x' }));
    const foreign = () => new Response(JSON.stringify(pres([], { threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b2ff' })));
    const { cache, sent, warnings, advance } = setup([erro, ok, () => new Response('', { status: 500 }), foreign]);
    assert.equal(await cache.decide('4000000000001000'), undefined);
    assert.equal(await cache.decide('4000000000001000'), undefined);
    assert.equal(sent.length, 1, 'not asked again for every payment');
    assert.equal((warnings[0] as { reason: string }).reason, 'erro-402');
    advance(RETRY_AFTER_FAILURE_MS);
    assert.equal((await cache.decide('4000000000001000'))?.kind, 'enrolled');
    advance(3_600_000);
    assert.equal((await cache.decide('4000000000001000'))?.kind, 'enrolled', 'the known ranges stay after a failed refresh');
    advance(RETRY_AFTER_FAILURE_MS);
    assert.equal((await cache.decide('4000000000001000'))?.kind, 'enrolled');
    assert.deepEqual(warnings.map((w) => (w as { reason: string }).reason), ['erro-402', 'http-500', 'foreign']);
  });
});
