import { generateKeyPairSync, randomUUID } from 'node:crypto';

/**
 * What a mobile app's 3DS SDK hands the app as authRequestParams, in the form the gateway's own
 * 3DS server reads from threeDSecure.deviceInfo (base64 JSON; docs/three-d-secure.md). sdkEncData
 * stands for the SDK's JWE of the device data: the gateway passes it on unread.
 */
export function sdkAuthRequestParams(overrides: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  return {
    sdkAppID: randomUUID(),
    sdkEncData: 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMTI4R0NNIn0.ZGV2aWNlLWRhdGE.aXY.Y2lwaGVy.dGFn',
    sdkEphemPubKey: { kty: 'EC', crv: 'P-256', x: jwk['x'], y: jwk['y'] },
    sdkMaxTimeout: '05',
    sdkReferenceNumber: 'SDK_REF_TEST_0001',
    sdkTransID: randomUUID(),
    deviceRenderOptions: { sdkInterface: '03', sdkUiType: ['01', '02', '03', '04', '05'] },
    ...overrides,
  };
}

export function deviceInfoOf(params: Readonly<Record<string, unknown>>): string {
  return Buffer.from(JSON.stringify(params), 'utf8').toString('base64');
}
