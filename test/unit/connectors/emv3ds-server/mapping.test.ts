/**
 * The 3DS server connector's pure parts: the AReq it builds from a directory query (valid for the
 * message layer, card number only in acctNumber) and what each ARes transStatus becomes; and the
 * HTTP answers without result (a stub fetch) that must all be 'unavailable'.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../../src/config/load-config.js';
import { buildAReq, fitLanguage } from '../../../../src/connectors/emv3ds-server/areq.js';
import { answerOfARes } from '../../../../src/connectors/emv3ds-server/ares.js';
import { appChallengeOf, challengeRedirectOf, Emv3dsServer } from '../../../../src/connectors/emv3ds-server/server.js';
import { validate } from '../../../../src/connectors/emv3ds/validate.js';
import type { AResMessage } from '../../../../src/connectors/emv3ds/types.js';
import type { DirectoryQuery } from '../../../../src/connectors/three-d-secure.js';
import { frictionlessARes } from '../../../support/emv3ds.js';

const settings = loadConfig({ THREE_DS_SERVER_DS_URL: 'http://127.0.0.1:9/ds/areq' }).threeDsServer!;
const PAN = '4000000000001000';
const BROWSER = { acceptHeader: 'text/html', language: 'de-DE', screenHeight: '1080', screenWidth: '1920', screenColorDepth: '24', timezone: '-60', userAgent: 'Mozilla/5.0', javaEnabled: false, ip: '192.0.2.1' };
const QUERY: DirectoryQuery = { pan: PAN, forcedEnrolled: false, challengeRequested: false, channel: 'browser', purchase: { amountMinor: 9200n, currency: 'EUR', source: 'amount' }, browser: BROWSER, cardExpiry: { month: '5', year: '2034' } };
const CONTEXT = { threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e', now: new Date('2026-11-27T15:30:00Z'), threeDSServerURL: 'https://pay.example/v1/threeDSecure/results', notificationURL: 'https://pay.example/v1/threeDSecure/notification' };

describe('the AReq the connector builds', () => {
  it('is a valid browser AReq in both versions, the card only in acctNumber', () => {
    for (const messageVersion of ['2.2.0', '2.3.1'] as const) {
      const built = buildAReq(QUERY, { ...settings, messageVersion }, CONTEXT);
      assert.ok(built.ok);
      const checked = validate(built.areq, 'AReq');
      assert.ok(checked.ok, JSON.stringify(!checked.ok && checked.error));
      assert.equal(built.areq.acctNumber, PAN);
      assert.equal(JSON.stringify({ ...built.areq, acctNumber: undefined }).includes(PAN), false);
      assert.deepEqual([built.areq.purchaseAmount, built.areq.purchaseCurrency, built.areq.purchaseDate, built.areq.cardExpiryDate], ['9200', '978', '20261127153000', '3405']);
    }
  });
  it('a challenge mandate asks 04; without script-measured screen data, javascript is false and no screen field goes', () => {
    const built = buildAReq({ ...QUERY, challengeRequested: true, browser: { ...BROWSER, screenColorDepth: undefined } }, settings, CONTEXT);
    assert.ok(built.ok);
    assert.equal(built.areq.threeDSRequestorChallengeInd, '04');
    assert.equal(built.areq.browserJavascriptEnabled, false);
    assert.equal(built.areq.browserScreenHeight, undefined);
    assert.ok(validate(built.areq, 'AReq').ok);
  });

  it('the challenge indicator sent goes as it is, before the mandate rule; without one and without a mandate 01', () => {
    for (const [query, expected] of [[{ ...QUERY, challengeIndicator: '05' }, '05'], [{ ...QUERY, challengeIndicator: '04', challengeRequested: true }, '04'], [{ ...QUERY, challengeIndicator: '02', challengeRequested: true }, '02'], [QUERY, '01']] as const) {
      const built = buildAReq(query, settings, CONTEXT);
      assert.ok(built.ok && validate(built.areq, 'AReq').ok);
      assert.equal(built.areq.threeDSRequestorChallengeInd, expected);
    }
  });

  it('the requestor authentication fields come from the query: 01 without any, 02/03 with their series data, valid in both versions', () => {
    const rows = [
      [{}, { threeDSRequestorAuthenticationInd: '01' }],
      [{ requestorAuthentication: { threeDSRequestorAuthenticationInd: '04' } }, { threeDSRequestorAuthenticationInd: '04' }],
      [{ requestorAuthentication: { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '99991231', recurringFrequency: '1' } }, { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '99991231', recurringFrequency: '1' }],
      [{ requestorAuthentication: { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '20300630', recurringFrequency: '30', purchaseInstalData: '12' } }, { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '20300630', recurringFrequency: '30', purchaseInstalData: '12' }],
    ] as const;
    for (const [extra, expected] of rows) {
      for (const [name, query] of [['browser', { ...QUERY, ...extra }], ['app', { ...QUERY, ...extra, channel: 'app', browser: undefined, sdk: SDK }]] as const) {
        for (const messageVersion of ['2.2.0', '2.3.1'] as const) {
          const built = buildAReq(query, { ...settings, messageVersion }, CONTEXT);
          assert.ok(built.ok);
          const checked = validate(built.areq, 'AReq');
          assert.ok(checked.ok, JSON.stringify(!checked.ok && checked.error));
          const { threeDSRequestorAuthenticationInd, recurringExpiry, recurringFrequency, purchaseInstalData } = built.areq;
          const got = Object.fromEntries(Object.entries({ threeDSRequestorAuthenticationInd, recurringExpiry, recurringFrequency, purchaseInstalData }).filter(([, value]) => value !== undefined));
          assert.deepEqual(got, expected, `${name} ${messageVersion}`);
        }
      }
    }
  });

  it('a 3RI says no threeDSRequestorAuthenticationInd (nor its series data) whatever the query carries', () => {
    const built = buildAReq({ ...QUERY, browser: undefined, requestorInitiated: { indicator: '01' }, requestorAuthentication: { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '99991231', recurringFrequency: '1' } }, settings, CONTEXT);
    assert.ok(built.ok && validate(built.areq, 'AReq').ok);
    assert.deepEqual([built.areq.threeDSRequestorAuthenticationInd, built.areq.recurringExpiry, built.areq.recurringFrequency], [undefined, undefined, undefined]);
  });
  it('a language tag longer than 2.2.0 takes loses its last subtags; 2.3.1 takes it whole', () => {
    assert.deepEqual([fitLanguage('zh-Hant-TW', 8), fitLanguage('de-DE', 8), fitLanguage('abcdefghij', 8)], ['zh-Hant', 'de-DE', 'abcdefgh']);
    const long = { ...QUERY, browser: { ...BROWSER, language: 'zh-Hant-TW' } };
    const old = buildAReq(long, settings, CONTEXT);
    const recent = buildAReq(long, { ...settings, messageVersion: '2.3.1' }, CONTEXT);
    assert.ok(old.ok && recent.ok);
    assert.deepEqual([old.areq.browserLanguage, recent.areq.browserLanguage], ['zh-Hant', 'zh-Hant-TW']);
    assert.ok(validate(old.areq, 'AReq').ok);
  });
  it('is not built for the app channel without the SDK\'s data, or for an unknown currency', () => {
    assert.deepEqual(buildAReq({ ...QUERY, channel: 'app' }, settings, CONTEXT), { ok: false, refusal: 'no-sdk-data' });
    assert.deepEqual(buildAReq({ ...QUERY, purchase: { amountMinor: 1n, currency: 'XXX', source: 'amount' } }, settings, CONTEXT), { ok: false, refusal: 'currency' });
  });
});

const SDK = {
  sdkAppID: 'a4f1b2c3-1111-4222-8333-944445555666', sdkEncData: 'eyJhbGciOiJSU0EtT0FFUC0yNTYifQ.e30.aXY.Y2lwaGVy.dGFn',
  sdkEphemPubKey: { kty: 'EC', crv: 'P-256', x: 'WKn-ZIGevcwGIyyrzFoZNBdaq9_TsqzGl96oc0CWuis', y: 'y77t-RvAHRKTsSGdIYUfweuOvwrvDD-Q3Hv5J0fSKbE' },
  sdkMaxTimeout: '05', sdkReferenceNumber: 'SDK_REF_1', sdkTransID: 'b5e2c3d4-2222-4333-9444-a55556666777',
  deviceRenderOptions: { sdkInterface: '03', sdkUiType: ['01', '02'] },
} as const;

describe('the AReq of each channel, validated by the message layer', () => {
  const rows: ReadonlyArray<readonly [string, DirectoryQuery, string, readonly string[], readonly string[]]> = [
    // name, query, deviceChannel, fields it has, fields it must not have
    ['browser (02)', QUERY, '02', ['notificationURL', 'threeDSServerURL', 'threeDSCompInd', 'browserUserAgent', 'threeDSRequestorAuthenticationInd'], ['sdkTransID', 'threeRIInd']],
    ['app (01)', { ...QUERY, channel: 'app', browser: undefined, sdk: SDK }, '01',
      ['sdkAppID', 'sdkEncData', 'sdkEphemPubKey', 'sdkMaxTimeout', 'sdkReferenceNumber', 'sdkTransID', 'deviceRenderOptions', 'threeDSServerURL', 'threeDSRequestorAuthenticationInd'],
      ['notificationURL', 'threeDSCompInd', 'browserUserAgent', 'browserJavaEnabled', 'threeRIInd']],
    ['3RI (03) recurring with a prior authentication', { ...QUERY, browser: undefined, requestorInitiated: { indicator: '01', prior: { threeDSReqPriorAuthMethod: '02', threeDSReqPriorAuthTimestamp: '202611271530', threeDSReqPriorRef: 'd7c1ee99-9478-44a6-b1f2-391e29c6b340', threeDSReqPriorAuthData: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b' } } }, '03',
      ['threeRIInd', 'threeDSRequestorPriorAuthenticationInfo', 'purchaseAmount'],
      ['threeDSServerURL', 'notificationURL', 'threeDSCompInd', 'browserUserAgent', 'sdkTransID', 'threeDSRequestorAuthenticationInd']],
    ['3RI (03) without a prior authentication', { ...QUERY, browser: undefined, requestorInitiated: { indicator: '06' } }, '03', ['threeRIInd'], ['threeDSRequestorPriorAuthenticationInfo', 'threeDSServerURL']],
  ];
  for (const [name, query, channel, has, hasNot] of rows) {
    it(name, () => {
      for (const messageVersion of ['2.2.0', '2.3.1'] as const) {
        const built = buildAReq(query, { ...settings, messageVersion }, CONTEXT);
        assert.ok(built.ok);
        const checked = validate(built.areq, 'AReq');
        assert.ok(checked.ok, JSON.stringify(!checked.ok && checked.error));
        const areq = built.areq as unknown as Record<string, unknown>;
        assert.equal(areq['deviceChannel'], channel);
        for (const field of has) assert.notEqual(areq[field], undefined, `${field} in ${messageVersion}`);
        for (const field of hasNot) assert.equal(areq[field], undefined, `no ${field} in ${messageVersion}`);
        assert.equal(JSON.stringify({ ...areq, acctNumber: undefined }).includes(PAN), false, 'the card only in acctNumber');
      }
    });
  }
  it('the message layer refuses an app AReq without an SDK field, and a 3RI without threeRIInd (201)', () => {
    const app = buildAReq({ ...QUERY, channel: 'app', sdk: SDK }, settings, CONTEXT);
    const ri = buildAReq({ ...QUERY, requestorInitiated: { indicator: '01' } }, settings, CONTEXT);
    assert.ok(app.ok && ri.ok);
    const { sdkTransID: _sdk, ...withoutSdk } = app.areq;
    const { threeRIInd: _ri, ...withoutIndicator } = ri.areq;
    for (const [message, field] of [[withoutSdk, 'sdkTransID'], [withoutIndicator, 'threeRIInd']] as const) {
      const checked = validate(message, 'AReq');
      assert.ok(!checked.ok && checked.error.code === '201' && checked.error.detail.includes(field), JSON.stringify(checked));
    }
    const badPrior = validate({ ...ri.areq, threeDSRequestorPriorAuthenticationInfo: { threeDSReqPriorAuthMethod: '09', threeDSReqPriorAuthTimestamp: 'now' } }, 'AReq');
    assert.ok(!badPrior.ok && badPrior.error.code === '203', JSON.stringify(badPrior));
  });
});

describe('a challenge per channel', () => {
  const c = { ...frictionlessARes('2.2.0'), transStatus: 'C', authenticationValue: undefined, eci: undefined, acsChallengeMandated: 'N', authenticationType: '02' } as unknown as AResMessage;
  const rows: ReadonlyArray<readonly [string, Partial<AResMessage>, '01' | '02' | '03', string]> = [
    ['browser: acsURL', { acsURL: 'https://acs.example/challenge' }, '02', 'challenge'],
    ['browser: acsSignedContent only', { acsSignedContent: 'a.b.c' }, '02', 'unavailable'],
    ['app: acsSignedContent', { acsSignedContent: 'a.b.c', sdkTransID: SDK.sdkTransID }, '01', 'challenge'],
    ['app: acsURL only', { acsURL: 'https://acs.example/challenge' }, '01', 'unavailable'],
    ['3RI: any C is a protocol error', { acsURL: 'https://acs.example/challenge', acsSignedContent: 'a.b.c' }, '03', 'unavailable'],
  ];
  for (const [name, overrides, channel, kind] of rows) {
    it(`${name} → ${kind}`, () => {
      const answer = answerOfARes({ ...c, ...overrides } as AResMessage, channel);
      assert.equal(answer.kind, kind);
      if (channel === '01' && kind === 'challenge') {
        assert.deepEqual(answer.challenge?.app, { acsSignedContent: 'a.b.c', acsReferenceNumber: c.acsReferenceNumber, sdkTransID: SDK.sdkTransID });
        const data = appChallengeOf({ gatewayBaseUrl: 'https://pay.example', reference: 'a'.repeat(32), dsTransactionId: c.dsTransID, acsTransactionId: c.acsTransID, session: answer.challenge });
        assert.deepEqual(data, {
          authenticationStatus: 'C', version: '2.2.0', threeDSServerTransactionId: c.threeDSServerTransID, dsTransactionId: c.dsTransID, acsTransactionId: c.acsTransID,
          acsReferenceNumber: c.acsReferenceNumber, acsSignedContent: 'a.b.c', sdkTransactionId: SDK.sdkTransID,
        });
      }
    });
  }
  it('an ARes of another SDK transaction is no answer for the app', async () => {
    let sent: Record<string, unknown> = {};
    const fetch: typeof globalThis.fetch = async (_url, init) => {
      sent = JSON.parse(String(init?.body));
      return new Response(JSON.stringify({ ...frictionlessARes('2.2.0', { threeDSServerTransID: sent['threeDSServerTransID'] as string }), sdkTransID: 'c6f3d4e5-3333-4444-a555-b66667777888' }), { status: 200 });
    };
    const server = new Emv3dsServer({ settings, clock: { now: () => CONTEXT.now }, ids: { id: () => '0'.repeat(32) }, gatewayBaseUrl: 'https://pay.example', fetch });
    assert.deepEqual(await server.lookup({ ...QUERY, channel: 'app', sdk: SDK }), { kind: 'unavailable' });
    assert.equal(sent['deviceChannel'], '01');
  });
});

describe('what each transStatus becomes', () => {
  const ares = (overrides: Record<string, unknown>) => ({ ...frictionlessARes('2.2.0'), ...overrides }) as AResMessage;
  const rows: ReadonlyArray<readonly [string, Record<string, unknown>, string, string?]> = [
    ['Y', { transStatus: 'Y' }, 'frictionless', 'Y'],
    ['A', { transStatus: 'A', eci: '06' }, 'frictionless', 'A'],
    ['Y without authenticationValue', { transStatus: 'Y', authenticationValue: undefined }, 'unavailable'],
    ['N', { transStatus: 'N', transStatusReason: '01', authenticationValue: undefined, eci: '07' }, 'failed', 'N'],
    ['R', { transStatus: 'R', transStatusReason: '11', authenticationValue: undefined, eci: '07' }, 'failed', 'R'],
    ['N without eci (kept without data)', { transStatus: 'N', transStatusReason: '01', authenticationValue: undefined, eci: undefined }, 'failed', 'N'],
    ['U reason 13', { transStatus: 'U', transStatusReason: '13', authenticationValue: undefined }, 'not-enrolled'],
    ['U reason 06', { transStatus: 'U', transStatusReason: '06', authenticationValue: undefined }, 'not-participating'],
    ['I', { transStatus: 'I', authenticationValue: undefined }, 'not-participating'],
    ['C with acsURL', { transStatus: 'C', authenticationValue: undefined, eci: undefined, acsURL: 'https://acs.example/challenge' }, 'challenge'],
    ['C without acsURL', { transStatus: 'C', authenticationValue: undefined, eci: undefined, acsURL: undefined }, 'unavailable'],
    ['D', { transStatus: 'D', authenticationValue: undefined }, 'unavailable'],
  ];
  for (const [name, overrides, kind, status] of rows) {
    it(`${name} → ${kind}`, () => {
      const message = ares(overrides);
      const answer = answerOfARes(message);
      assert.equal(answer.kind, kind);
      if (status) assert.equal((answer as { status: string }).status, status);
      if (message.eci === undefined) assert.equal(answer.authentication, undefined);
      else if (kind === 'frictionless' || kind === 'failed') {
        assert.equal(answer.authentication?.eci, message.eci);
        assert.equal(answer.authentication?.dsTransactionId, message.dsTransID);
        assert.equal(answer.authentication?.acsTransactionId, message.acsTransID);
        assert.equal(answer.authentication?.verificationId, message.authenticationValue);
      }
    });
  }
});

describe('an answer without result is unavailable', () => {
  const server = (fetch: typeof globalThis.fetch) => new Emv3dsServer({ settings, clock: { now: () => CONTEXT.now }, ids: { id: () => '0'.repeat(32) }, gatewayBaseUrl: 'https://pay.example', fetch });
  const respond = (status: number, body: string): typeof globalThis.fetch => async () => new Response(body, { status });
  const cases: ReadonlyArray<readonly [string, typeof globalThis.fetch]> = [
    ['HTTP 500', respond(500, '')],
    ['a refused connection', async () => { throw new TypeError('fetch failed'); }],
    ['an ARes of another transaction', respond(200, JSON.stringify(frictionlessARes('2.2.0')))],
    ['a CRes instead of an ARes', respond(200, JSON.stringify({ messageType: 'CRes', messageVersion: '2.2.0' }))],
  ];
  for (const [name, fetch] of cases) {
    it(name, async () => assert.deepEqual(await server(fetch).lookup(QUERY), { kind: 'unavailable' }));
  }
  it('while the ARes of this AReq is its answer (and the AReq sent carries the card only in acctNumber)', async () => {
    let sent = '';
    const mine: typeof globalThis.fetch = async (_url, init) => {
      sent = String(init?.body);
      return new Response(JSON.stringify(frictionlessARes('2.2.0', { threeDSServerTransID: JSON.parse(sent).threeDSServerTransID })), { status: 200 });
    };
    const answer = await server(mine).lookup(QUERY);
    assert.equal(answer.kind, 'frictionless');
    assert.equal(JSON.parse(sent).acctNumber, PAN);
    assert.equal(sent.split(PAN).length, 2, 'the card number once');
  });
});

describe('the challenge redirect', () => {
  const session = { threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e', acsTransID: 'd7c1ee99-9478-44a6-b1f2-391e29c6b340', dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b', messageVersion: '2.3.1', acsURL: 'https://acs.example/challenge' };
  const start = { gatewayBaseUrl: 'https://pay.example', reference: 'a'.repeat(32), dsTransactionId: session.dsTransID, acsTransactionId: session.acsTransID };

  it('POSTs a valid CReq of the ARes\'s transaction and the redirect id to acsURL', () => {
    const redirect = challengeRedirectOf({ ...start, session, challengeWindowSize: '02' });
    assert.deepEqual([redirect.url, redirect.method, redirect.parameters.map((p) => p.name)], [session.acsURL, 'POST', ['creq', 'threeDSSessionData']]);
    const creq = JSON.parse(Buffer.from(redirect.parameters[0]!.value, 'base64url').toString('utf8'));
    assert.ok(validate(creq, 'CReq').ok);
    assert.deepEqual(creq, { messageType: 'CReq', messageVersion: '2.3.1', threeDSServerTransID: session.threeDSServerTransID, acsTransID: session.acsTransID, challengeWindowSize: '02' });
    assert.equal(Buffer.from(redirect.parameters[1]!.value, 'base64url').toString('utf8'), start.reference);
  });

  it('refuses to start without the ARes\'s session, and never invents authentication data', () => {
    assert.throws(() => challengeRedirectOf(start));
    const server = new Emv3dsServer({ settings, clock: { now: () => CONTEXT.now }, ids: { id: () => '0'.repeat(32) }, gatewayBaseUrl: 'https://pay.example' });
    assert.throws(() => server.authenticationData());
  });
});
