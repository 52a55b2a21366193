import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decode, encode, readMessage } from '../../../src/connectors/emv3ds/codec.js';
import { MESSAGE_TYPES, SUPPORTED_VERSIONS } from '../../../src/connectors/emv3ds/fields.js';
import { validate } from '../../../src/connectors/emv3ds/validate.js';
import { browserAReq, frictionlessARes, IDS, pres, refusedARes, VALID_EXAMPLES, withoutFields } from '../../support/emv3ds.js';

describe('EMV 3DS messages: every type and version validates and round-trips exactly', () => {
  it('the examples cover every message type', () => {
    const covered = new Set(VALID_EXAMPLES.map((example) => example.build('2.2.0').messageType));
    assert.deepEqual([...covered].sort(), [...MESSAGE_TYPES].sort());
  });

  for (const version of SUPPORTED_VERSIONS) {
    for (const { name, build } of VALID_EXAMPLES) {
      it(`${name} ${version}`, () => {
        const message = build(version);
        const checked = validate(message, message.messageType);
        assert.ok(checked.ok, checked.ok ? '' : `${checked.error.code} ${checked.error.detail}`);
        const text = encode(message);
        const read = readMessage(text, message.messageType);
        assert.ok(read.ok);
        assert.deepEqual(read.message, message);
        assert.equal(encode(read.message), text, 'encoding what was read gives the same text');
      });
    }
  }

  it('unknown fields and a non-critical extension are tolerated and kept', () => {
    const message = browserAReq('2.2.0', {
      shipAddrCity: 'Berlin',
      messageExtension: [{ name: 'scheme data', id: 'A000000003-01', criticalityIndicator: false, data: { any: 'thing' } }],
    });
    const read = readMessage(encode(message), 'AReq');
    assert.ok(read.ok);
    assert.equal((read.message as unknown as Record<string, unknown>)['shipAddrCity'], 'Berlin');
  });

  it('a critical extension the receiver recognises is accepted', () => {
    const message = browserAReq('2.2.0', { messageExtension: [{ name: 'x', id: 'EXT-1', criticalityIndicator: true, data: {} }] });
    assert.ok(validate(message, 'AReq', { recognisedExtensions: ['EXT-1'] }).ok);
  });

  it('the expected type narrows the typed message: what an ARes carries into the payment', () => {
    const read = readMessage(encode(frictionlessARes('2.3.1')), 'ARes');
    assert.ok(read.ok);
    const { transStatus, eci, authenticationValue, dsTransID, acsTransID } = read.message;
    assert.deepEqual({ transStatus, eci, authenticationValue, dsTransID, acsTransID }, {
      transStatus: 'Y', eci: '05', authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=', dsTransID: IDS.dsTransID, acsTransID: IDS.acsTransID,
    });
  });

  it('decode keeps the members in the order of the text', () => {
    const decoded = decode('{"b":"1","a":"2"}');
    assert.ok(decoded.ok);
    assert.deepEqual(Object.keys(decoded.value), ['b', 'a']);
  });
});

describe('EMV 3DS messages: what 2.3.1 changes', () => {
  const info = { threeDSReqAuthMethod: '02', threeDSReqAuthTimestamp: '202611271500' };
  const cases = [
    { name: 'threeDSRequestorAuthenticationInfo as a list', message: browserAReq('2.3.1', { threeDSRequestorAuthenticationInfo: [info, { ...info, threeDSReqAuthMethod: '09' }] }), v220: { code: '203', detail: 'threeDSRequestorAuthenticationInfo' } },
    { name: 'browserJavaEnabled left out when JavaScript is off', message: withoutFields(browserAReq('2.3.1', { browserJavascriptEnabled: false }), ['browserJavaEnabled', 'browserColorDepth', 'browserScreenHeight', 'browserScreenWidth', 'browserTZ']), v220: { code: '201', detail: 'browserJavaEnabled' } },
    { name: 'a BCP 47 browserLanguage longer than 8', message: browserAReq('2.3.1', { browserLanguage: 'zh-Hant-TW-u-nu-hanidec' }), v220: { code: '203', detail: 'browserLanguage' } },
    { name: 'transStatus S', message: refusedARes('2.3.1', { transStatus: 'S', transStatusReason: undefined }), v220: { code: '203', detail: 'transStatus' } },
    {
      name: 'card ranges with acsProtocolVersions and dsProtocolVersions',
      message: withoutFields(pres('2.3.1', {
        dsProtocolVersions: ['2.2.0', '2.3.1'],
        cardRangeData: [{ startRange: '4012001037140000', endRange: '4012001037149999', acsProtocolVersions: [{ version: '2.3.1', threeDSMethodURL: 'https://acs.example.com/method', acsInfoInd: ['01'] }] }],
      }), ['dsStartProtocolVersion', 'dsEndProtocolVersion']),
      v220: { code: '201', detail: 'dsStartProtocolVersion,dsEndProtocolVersion,cardRangeData[0].acsStartProtocolVersion,cardRangeData[0].acsEndProtocolVersion' },
    },
  ];
  for (const { name, message, v220 } of cases) {
    it(`${name}: valid in 2.3.1, refused in 2.2.0 with ${v220.code}`, () => {
      const clean = withoutFields(message, []);
      const newer = validate(clean);
      assert.ok(newer.ok, newer.ok ? '' : `${newer.error.code} ${newer.error.detail}`);
      const older = validate({ ...clean, messageVersion: '2.2.0' });
      assert.ok(!older.ok);
      assert.equal(older.error.code, v220.code);
      assert.equal(older.error.detail, v220.detail);
    });
  }
});
