/**
 * The 3DS test platform (emulators/three-ds-host) driven in-process over HTTP: every table row's
 * AReq gets its ARes (or Erro, late or malformed answer), the PReq its card ranges, refused
 * messages the message layer's Erro, and a browser challenge travels CReq → page → code → RReq to
 * a stand-in 3DS Server → RRes → CRes form for notificationURL. The log holds each message and
 * never a card number. No database: the platform has none.
 */
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decode, readMessage } from '../../src/connectors/emv3ds/codec.js';
import { validate } from '../../src/connectors/emv3ds/validate.js';
import { authenticationValue } from '../../emulators/three-ds-host/directory.js';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, CHALLENGE_CODE, enrolledRanges, exampleCard, type CardRangeRow } from '../../emulators/three-ds-host/table.js';
import { browserCReq, PAN, preq, withoutFields } from '../support/emv3ds.js';
import { areqFor, base64url, inputValue, NOTIFICATION_URL, post, postForm, startServerStandIn, type ServerStandIn } from '../support/three-ds-host.js';

const SLOW_MS = 300;

describe('the 3DS test platform', () => {
  let host: ThreeDsHost;
  let standIn: ServerStandIn;
  const sendAReq = async (message: object) => post(`${host.url}/ds/areq`, JSON.stringify(message));
  before(async () => {
    host = await startThreeDsHost({ slowMs: SLOW_MS, rreqTimeoutMs: 2_000 });
    standIn = await startServerStandIn();
  });
  after(async () => {
    await host.close();
    await standIn.close();
  });

  describe('answers each row of its table', () => {
    for (const row of CARD_RANGES) {
      it(`${row.startRange}: ${row.outcome} ${row.transStatus ?? row.errorCode ?? ''}`, async () => {
        const pan = exampleCard(row);
        // The method row answers its own status when the method ran; without, it challenges (below).
        const areq = areqFor(pan, standIn.url, '2.2.0', row.outcome === 'method' ? { threeDSCompInd: 'Y' } : {});
        const started = Date.now();
        const answer = await sendAReq(areq);
        assert.equal(answer.status, 200);
        expectAnswer(row, answer.text, areq.threeDSServerTransID, host.url);
        if (row.outcome === 'slow') assert.ok(Date.now() - started >= SLOW_MS, 'the slow row answers late');
        const entry = host.log.get(areq.threeDSServerTransID);
        assert.equal(entry?.maskedPan, `${pan.slice(0, 6)}******${pan.slice(-4)}`);
        assert.equal(entry?.outcome, row.outcome);
        const sent = entry?.messages.find((m) => m.direction === 'out');
        if (row.outcome === 'erro') assert.equal(sent?.summary['errorCode'], row.errorCode);
        else assert.equal(sent?.summary['transStatus'], row.outcome === 'not-json' || row.outcome === 'missing-fields' ? undefined : row.transStatus);
        if (row.outcome === 'not-json' || row.outcome === 'missing-fields') assert.ok(sent?.summary['malformed']);
      });
    }
    it('a card in no range is not enrolled: ARes U, reason 13', async () => {
      const ares = json((await sendAReq(areqFor(PAN, standIn.url))).text);
      assert.deepEqual([ares['transStatus'], ares['transStatusReason']], ['U', '13']);
    });
    it('answers in the AReq\'s version (2.3.1)', async () => {
      const ares = json((await sendAReq(areqFor('4000000000001000', standIn.url, '2.3.1'))).text);
      assert.equal(ares['messageVersion'], '2.3.1');
      assert.ok(validate(ares, 'ARes').ok);
    });
    it('an app AReq of the challenge range gets C with acsSignedContent (ES256) naming the app challenge URL and the SDK\'s key; a 3RI AReq gets C with acsURL', async () => {
      const sdkEphemPubKey = { kty: 'EC', crv: 'P-256', x: 'WKn-ZIGevcwGIyyrzFoZNBdaq9_TsqzGl96oc0CWuis', y: 'y77t-RvAHRKTsSGdIYUfweuOvwrvDD-Q3Hv5J0fSKbE' };
      const areq = areqFor('4000000000001505', standIn.url, '2.2.0', { deviceChannel: '01', sdkAppID: 'e2d4f58a-c0c5-4b8a-9d7a-8c0f9ac0e0d1', sdkEncData: 'enc', sdkEphemPubKey, sdkMaxTimeout: '05', sdkReferenceNumber: 'SDK_REF', sdkTransID: 'b2385523-a66c-4907-ac3c-91848e8c0067', deviceRenderOptions: { sdkInterface: '03', sdkUiType: ['01'] } });
      const ares = json((await sendAReq(areq)).text);
      assert.ok(validate(ares, 'ARes').ok);
      assert.deepEqual([ares['transStatus'], ares['acsURL'], ares['sdkTransID']], ['C', undefined, 'b2385523-a66c-4907-ac3c-91848e8c0067']);
      const [header, payload, signature] = String(ares['acsSignedContent']).split('.');
      const decoded = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
      assert.equal(decoded(header!).alg, 'ES256');
      const content = decoded(payload!);
      assert.deepEqual([content.acsTransID, content.acsURL, content.sdkEphemPubKey], [ares['acsTransID'], `${host.url}/acs/app-challenge`, sdkEphemPubKey]);
      assert.ok(verify('sha256', Buffer.from(`${header}.${payload}`), { key: createPublicKey({ key: content.acsEphemPubKey, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url')));
      const { threeDSServerURL: _url, notificationURL: _n, threeDSCompInd: _c, threeDSRequestorAuthenticationInd: _a, ...rest } = areqFor('4000000000001505', standIn.url) as unknown as Record<string, unknown>;
      const ri = json((await sendAReq({ ...rest, deviceChannel: '03', threeRIInd: '01' })).text);
      assert.deepEqual([ri['messageType'], ri['transStatus'], ri['acsURL']], ['ARes', 'C', `${host.url}/acs/challenge`]);
    });
  });

  describe('the app challenge endpoint (plain JSON CReq, the test as the SDK)', () => {
    const sdkTransID = 'b2385523-a66c-4907-ac3c-91848e8c0067';
    async function appChallenge() {
      const sdkEphemPubKey = { kty: 'EC', crv: 'P-256', x: 'WKn-ZIGevcwGIyyrzFoZNBdaq9_TsqzGl96oc0CWuis', y: 'y77t-RvAHRKTsSGdIYUfweuOvwrvDD-Q3Hv5J0fSKbE' };
      const areq = areqFor('4000000000001505', standIn.url, '2.2.0', { deviceChannel: '01', sdkAppID: 'e2d4f58a-c0c5-4b8a-9d7a-8c0f9ac0e0d1', sdkEncData: 'enc', sdkEphemPubKey, sdkMaxTimeout: '05', sdkReferenceNumber: 'SDK_REF', sdkTransID, deviceRenderOptions: { sdkInterface: '03', sdkUiType: ['01'] } });
      const ares = json((await sendAReq(areq)).text);
      const creq = (extra: Record<string, unknown>) => ({ messageType: 'CReq', messageVersion: '2.2.0', threeDSServerTransID: ares['threeDSServerTransID'], acsTransID: ares['acsTransID'], sdkTransID, sdkCounterStoA: '000', ...extra });
      const send = async (message: unknown) => json((await post(`${host.url}/acs/app-challenge`, typeof message === 'string' ? message : JSON.stringify(message))).text);
      return { ares, creq, send };
    }
    it('refuses a malformed CReq (101, 201, 203), another SDK or transaction (301), and a finished challenge (305); the code ends it with the RReq', async () => {
      const { ares, creq, send } = await appChallenge();
      assert.equal((await send('not json'))['errorCode'], '101');
      const { sdkCounterStoA: _counter, ...withoutCounter } = creq({});
      assert.equal((await send(withoutCounter))['errorCode'], '201');
      assert.equal((await send(creq({ sdkCounterStoA: 'x' })))['errorCode'], '203');
      assert.equal((await send(creq({ sdkTransID: 'c6f3d4e5-3333-4444-a555-b66667777888' })))['errorCode'], '301');
      assert.equal((await send(creq({ acsTransID: 'd7c1ee99-9478-44a6-b1f2-391e29c6b340' })))['errorCode'], '301');
      const final = await send(creq({ challengeDataEntry: CHALLENGE_CODE }));
      assert.deepEqual([final['messageType'], final['challengeCompletionInd'], final['transStatus'], final['sdkTransID']], ['CRes', 'Y', 'Y', sdkTransID]);
      const rreq = standIn.received.find((message) => message.threeDSServerTransID === ares['threeDSServerTransID']);
      assert.deepEqual([rreq?.transStatus, rreq?.sdkTransID, rreq?.eci], ['Y', sdkTransID, '05']);
      assert.equal((await send(creq({ challengeDataEntry: CHALLENGE_CODE })))['errorCode'], '305');
      // The browser page is not for it.
      const page = await postForm(`${host.url}/acs/challenge`, { creq: base64url(browserCReq('2.2.0', { threeDSServerTransID: ares['threeDSServerTransID'], acsTransID: ares['acsTransID'] })) });
      assert.equal(page.status, 400);
    });
  });

  describe('refuses a malformed AReq with the message layer\'s Erro', () => {
    const cases: readonly { name: string; body: (resultsUrl: string) => string; code: string; detail?: string }[] = [
      { name: 'not JSON', body: () => '{"messageType": "AReq",', code: '101' },
      { name: 'a required field missing', body: (url) => JSON.stringify(withoutFields(areqFor('4000000000001000', url), ['acctNumber'])), code: '201', detail: 'acctNumber' },
      { name: 'a malformed field', body: (url) => JSON.stringify(areqFor('4000000000001000', url, '2.2.0', { purchaseDate: '2026-11-27' })), code: '203', detail: 'purchaseDate' },
      { name: 'an unsupported version', body: (url) => JSON.stringify(areqFor('4000000000001000', url, '2.1.0' as never)), code: '102', detail: 'messageVersion' },
      { name: 'a PAN sent twice', body: (url) => JSON.stringify(areqFor('4000000000001000', url)).replace('"acctNumber"', '"acctNumber":"4000000000001001","acctNumber"'), code: '204', detail: 'acctNumber' },
    ];
    for (const c of cases) {
      it(`${c.name}: Erro ${c.code}`, async () => {
        const answer = await post(`${host.url}/ds/areq`, c.body(standIn.url));
        const erro = json(answer.text);
        assert.equal(answer.status, 200);
        assert.ok(validate(erro, 'Erro').ok);
        assert.deepEqual([erro['errorCode'], erro['errorComponent']], [c.code, 'D']);
        if (c.detail) assert.equal(erro['errorDetail'], c.detail);
        assert.ok(!answer.text.includes('4000000000001'), 'no card number in the Erro');
      });
    }
  });

  describe('the PReq', () => {
    it('without a serial number: every enrolled range, the not-enrolled one left out', async () => {
      const pres = json((await post(`${host.url}/ds/preq`, JSON.stringify(withoutFields(preq(), ['serialNum'])))).text);
      assert.ok(validate(pres, 'PRes').ok);
      const ranges = pres['cardRangeData'] as { startRange: string; endRange: string }[];
      assert.deepEqual(ranges.map((r) => [r.startRange, r.endRange]), enrolledRanges().map((r) => [r.startRange, r.endRange]));
      assert.ok(!ranges.some((r) => r.startRange === '4000000000001600'));
    });
    it('with the current serial number: no changes; with another: Erro 307', async () => {
      const same = json((await post(`${host.url}/ds/preq`, JSON.stringify(preq('2.2.0', { serialNum: '1' })))).text);
      assert.equal(same['messageType'], 'PRes');
      assert.equal(same['cardRangeData'], undefined);
      const other = json((await post(`${host.url}/ds/preq`, JSON.stringify(preq('2.2.0', { serialNum: '7' })))).text);
      assert.deepEqual([other['messageType'], other['errorCode']], ['Erro', '307']);
    });
  });

  describe('the 3DS Method', () => {
    const methodRow = CARD_RANGES.find((r) => r.outcome === 'method')!;
    const methodData = (data: object) => Buffer.from(JSON.stringify(data), 'utf8').toString('base64url');
    it('the PRes names the method URL for the method row\'s range only, and each range\'s ACS versions', async () => {
      const pres = json((await post(`${host.url}/ds/preq`, JSON.stringify(withoutFields(preq(), ['serialNum'])))).text);
      const ranges = pres['cardRangeData'] as { startRange: string; threeDSMethodURL?: string; acsEndProtocolVersion: string }[];
      assert.deepEqual(ranges.filter((r) => r.threeDSMethodURL).map((r) => [r.startRange, r.threeDSMethodURL]), [[methodRow.startRange, `${host.url}/acs/method`]]);
      assert.equal(ranges.find((r) => r.startRange === '4000000000002100')?.acsEndProtocolVersion, '2.2.0');
    });
    it('the method row challenges an AReq whose method did not run (threeDSCompInd N or U)', async () => {
      for (const threeDSCompInd of ['N', 'U']) {
        const areq = areqFor(exampleCard(methodRow), standIn.url, '2.2.0', { threeDSCompInd });
        const ares = json((await sendAReq(areq)).text);
        assert.equal(ares['transStatus'], 'C', threeDSCompInd);
        assert.equal(host.log.get(areq.threeDSServerTransID)?.messages[0]?.summary['threeDSCompInd'], threeDSCompInd);
      }
    });
    it('the method page logs the transaction and posts threeDSMethodData back to the notification URL, under a strict CSP', async () => {
      const transId = '3f6f2b8e-5c1d-4d5e-9a0b-1c2d3e4f5a6b';
      const page = await postForm(`${host.url}/acs/method`, { threeDSMethodData: methodData({ threeDSServerTransID: transId, threeDSMethodNotificationURL: 'https://pay.example/v1/threeDSecure/method-notification' }) });
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'; form-action https:\/\/pay\.example/);
      assert.match(page.text, /action="https:\/\/pay\.example\/v1\/threeDSecure\/method-notification"/);
      assert.deepEqual(JSON.parse(Buffer.from(inputValue(page.text, 'threeDSMethodData')!, 'base64url').toString('utf8')), { threeDSServerTransID: transId });
      assert.ok(!/<script>/.test(page.text), 'no inline script');
      assert.equal(host.log.get(transId)?.messages[0]?.type, 'Method');
      assert.equal((await fetch(`${host.url}/acs/method.js`)).status, 200);
    });
    it('malformed method data: 400, nothing logged', async () => {
      const before = host.log.entries().length;
      for (const value of ['not base64!', methodData({ threeDSServerTransID: 'nope', threeDSMethodNotificationURL: 'https://pay.example/' }), methodData({ threeDSServerTransID: '3f6f2b8e-5c1d-4d5e-9a0b-1c2d3e4f5a6c', threeDSMethodNotificationURL: 'javascript:alert(1)' })]) {
        assert.equal((await postForm(`${host.url}/acs/method`, { threeDSMethodData: value })).status, 400);
      }
      assert.equal(host.log.entries().length, before);
    });
  });

  describe('a browser challenge', () => {
    it('the right code: RReq Y to threeDSServerURL, RRes logged, a CRes Y form for notificationURL', async () => {
      const { areq, page } = await openChallenge();
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      assert.doesNotMatch(page.text, /<script/i);
      assert.match(page.text, /<label for="code">/);
      const result = await submit(page.text, { code: CHALLENGE_CODE, action: 'verify' });
      assert.equal(result.status, 200);
      assert.match(result.headers.get('content-security-policy') ?? '', /form-action 'self' https:\/\/merchant\.example/);
      assert.ok(result.text.includes(`action="${NOTIFICATION_URL}"`));
      assert.equal(inputValue(result.text, 'threeDSSessionData'), 'session-1');
      const cres = readMessage(Buffer.from(inputValue(result.text, 'cres')!, 'base64url').toString('utf8'), 'CRes');
      assert.ok(cres.ok);
      assert.deepEqual([cres.message.challengeCompletionInd, cres.message.transStatus, cres.message.threeDSServerTransID], ['Y', 'Y', areq.threeDSServerTransID]);
      const rreq = standIn.received.find((r) => r.threeDSServerTransID === areq.threeDSServerTransID);
      assert.deepEqual([rreq?.transStatus, rreq?.eci, rreq?.authenticationValue], ['Y', '05', authenticationValue(areq.threeDSServerTransID, 'Y')]);
      const entry = host.log.get(areq.threeDSServerTransID)!;
      assert.deepEqual(entry.messages.map((m) => `${m.type} ${m.direction}`), ['AReq in', 'ARes out', 'CReq in', 'RReq out', 'RRes in', 'CRes out']);
      assert.equal(entry.messages.find((m) => m.type === 'RRes')?.summary['resultsStatus'], '01');
      assert.equal(entry.acsTransID, rreq?.acsTransID);
    });
    it('a wrong code: RReq and CRes N, reason 01; the challenge cannot be answered twice', async () => {
      const { areq, page } = await openChallenge();
      const result = await submit(page.text, { code: '9999', action: 'verify' });
      const rreq = standIn.received.find((r) => r.threeDSServerTransID === areq.threeDSServerTransID);
      assert.deepEqual([rreq?.transStatus, rreq?.transStatusReason, rreq?.authenticationValue], ['N', '01', undefined]);
      assert.equal(json(Buffer.from(inputValue(result.text, 'cres')!, 'base64url').toString('utf8'))['transStatus'], 'N');
      const again = await submit(page.text, { code: CHALLENGE_CODE, action: 'verify' });
      assert.equal(again.status, 400);
      assert.match(again.text, /error 305/);
    });
    it('Cancel: RReq N with challengeCancel 01', async () => {
      const { areq, page } = await openChallenge();
      await submit(page.text, { code: '', action: 'cancel' });
      const rreq = standIn.received.find((r) => r.threeDSServerTransID === areq.threeDSServerTransID);
      assert.deepEqual([rreq?.transStatus, rreq?.challengeCancel], ['N', '01']);
    });
    it('a 3DS Server that does not answer: the CRes still reaches the browser, the log says why there was no RRes', async () => {
      const { areq, page } = await openChallenge('http://127.0.0.1:9/3ds/results');
      const result = await submit(page.text, { code: CHALLENGE_CODE, action: 'verify' });
      assert.equal(result.status, 200);
      assert.match(host.log.get(areq.threeDSServerTransID)!.messages.find((m) => m.type === 'RRes')?.summary['error'] ?? '', /^no answer/);
    });
    it('refuses a CReq that is not base64url (101), not a CReq (101), or of an unknown transaction (301)', async () => {
      const bad = await postForm(`${host.url}/acs/challenge`, { creq: '{not base64}' });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /error 101/);
      const unknown = await postForm(`${host.url}/acs/challenge`, { creq: base64url(browserCReq()) });
      assert.equal(unknown.status, 400);
      assert.match(unknown.text, /error 301/);
      const wrongType = await postForm(`${host.url}/acs/challenge`, { creq: base64url(preq()) });
      assert.match(wrongType.text, /error 101/);
    });

    async function openChallenge(resultsUrl = standIn.url) {
      const areq = areqFor('4000000000001505', resultsUrl);
      const ares = json((await sendAReq(areq)).text);
      assert.equal(ares['acsURL'], `${host.url}/acs/challenge`);
      const creq = browserCReq('2.2.0', { threeDSServerTransID: areq.threeDSServerTransID, acsTransID: ares['acsTransID'] });
      return { areq, ares, page: await postForm(ares['acsURL'] as string, { creq: base64url(creq), threeDSSessionData: 'session-1' }) };
    }
    function submit(pageHtml: string, fields: Record<string, string>) {
      return postForm(`${host.url}/acs/challenge/submit`, { acsTransID: inputValue(pageHtml, 'acsTransID')!, threeDSSessionData: inputValue(pageHtml, 'threeDSSessionData')!, ...fields });
    }
  });

  describe('transport', () => {
    it('a body over 64 KiB: 413 unread; another method: 405; another path: 404', async () => {
      assert.equal((await post(`${host.url}/ds/areq`, 'x'.repeat(65 * 1024))).status, 413);
      assert.equal((await fetch(`${host.url}/ds/areq`, { method: 'PUT', body: '{}' })).status, 405);
      assert.equal((await post(`${host.url}/ds/nothing`, '{}')).status, 404);
    });
  });

  describe('the log', () => {
    it('is served over HTTP, whole and by threeDSServerTransID, and never holds a card number', async () => {
      const all = await fetch(`${host.url}/log`);
      const text = await all.text();
      assert.equal(all.status, 200);
      for (const row of CARD_RANGES) assert.ok(!text.includes(exampleCard(row)), `no PAN of ${row.outcome} in the log`);
      assert.ok(!text.includes(PAN));
      const first = (JSON.parse(text) as { threeDSServerTransID: string }[])[0]!;
      const one = await fetch(`${host.url}/log/${first.threeDSServerTransID}`);
      assert.equal((await one.json() as { threeDSServerTransID: string }).threeDSServerTransID, first.threeDSServerTransID);
      assert.equal((await fetch(`${host.url}/log/00000000-0000-0000-0000-000000000000`)).status, 404);
    });
  });
});

function json(text: string): Record<string, unknown> {
  const decoded = decode(text);
  assert.ok(decoded.ok, `not a JSON object: ${text.slice(0, 80)}`);
  return decoded.value as Record<string, unknown>;
}

/** What each outcome of the table must answer, checked with the message layer. */
function expectAnswer(row: CardRangeRow, text: string, threeDSServerTransID: string, hostUrl: string): void {
  if (row.outcome === 'not-json') {
    assert.equal(decode(text).ok, false);
    return;
  }
  const message = json(text);
  if (row.outcome === 'missing-fields') {
    const read = validate(message, 'ARes');
    assert.ok(!read.ok && read.error.code === '201' && read.error.detail.includes('acsTransID') && read.error.detail.includes('transStatus'));
    return;
  }
  if (row.outcome === 'erro') {
    assert.ok(validate(message, 'Erro').ok);
    assert.deepEqual([message['errorCode'], message['errorComponent'], message['threeDSServerTransID']], [row.errorCode, 'D', threeDSServerTransID]);
    return;
  }
  const read = validate(message, 'ARes');
  assert.ok(read.ok, read.ok ? '' : `${read.error.code} ${read.error.detail}`);
  const ares = read.message;
  assert.equal(ares.threeDSServerTransID, threeDSServerTransID);
  assert.equal(ares.transStatus, row.transStatus);
  assert.equal(ares.transStatusReason, row.transStatusReason);
  if (ares.transStatus === 'Y' || ares.transStatus === 'A') {
    assert.equal(ares.authenticationValue, authenticationValue(threeDSServerTransID, ares.transStatus));
    assert.equal(ares.eci, ares.transStatus === 'Y' ? '05' : '06');
  }
  if (ares.transStatus === 'C') assert.equal(ares.acsURL, `${hostUrl}/acs/challenge`);
}
