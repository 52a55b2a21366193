/**
 * threeDSecure.deviceInfo for the gateway's own 3DS server (issue 37): the EMV 3DS SDK's
 * authRequestParams, as the merchant's app hands them over: base64 (standard or url-safe, with or
 * without padding) of the JSON object the SDK's AuthenticationRequestParameters give, with the
 * AReq's names (EMV 3DS 2.2, Table A.1; the SDK spec's getters map to them one to one):
 *
 * | Field | Format |
 * |---|---|
 * | sdkAppID | UUID |
 * | sdkEncData | the SDK's JWE of the device data, text 1–64000 (passed on as it is: the DS decrypts it) |
 * | sdkEphemPubKey | the SDK's ephemeral public key, a JWK object (kty EC, crv P-256, x, y) |
 * | sdkMaxTimeout | 2 digits, at least 05 (minutes) |
 * | sdkReferenceNumber | text 1–32 |
 * | sdkTransID | UUID |
 * | deviceRenderOptions | object: sdkInterface 01/02/03, sdkUiType a list of 01–05 |
 *
 * Pure: a parse or every problem found. The simulated directory takes any deviceInfo (it sends no
 * AReq); only a server that sends the app AReq asks for this parse.
 */

export interface DeviceRenderOptions {
  readonly sdkInterface: '01' | '02' | '03';
  readonly sdkUiType: readonly string[];
}

export interface SdkDeviceInfo {
  readonly sdkAppID: string;
  readonly sdkEncData: string;
  readonly sdkEphemPubKey: Readonly<Record<string, string>>;
  readonly sdkMaxTimeout: string;
  readonly sdkReferenceNumber: string;
  readonly sdkTransID: string;
  readonly deviceRenderOptions: DeviceRenderOptions;
}

export type DeviceInfoParse = { readonly ok: true; readonly info: SdkDeviceInfo } | { readonly ok: false; readonly problems: readonly string[] };

/** The parameter's catalogue limit is 16,384 characters; base64 of more JSON than that cannot arrive. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL_VALUE = /^[A-Za-z0-9_-]+$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decoded(deviceInfo: string): Record<string, unknown> | undefined {
  const trimmed = deviceInfo.trim();
  if (!BASE64.test(trimmed)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown, min: number, max: number): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

/** An EC P-256 public JWK: what the SDK generates for the challenge's key agreement (EMV 3DS 2.2, 6.2.3.2). */
function jwkProblems(value: unknown): string[] {
  if (!isObject(value)) return ['sdkEphemPubKey is not a JWK object'];
  const problems: string[] = [];
  if (value['kty'] !== 'EC') problems.push('sdkEphemPubKey.kty is not EC');
  if (value['crv'] !== 'P-256') problems.push('sdkEphemPubKey.crv is not P-256');
  for (const name of ['x', 'y']) {
    if (!text(value[name], 1, 64) || !BASE64URL_VALUE.test(value[name] as string)) problems.push(`sdkEphemPubKey.${name} is not base64url`);
  }
  if (value['d'] !== undefined) problems.push('sdkEphemPubKey holds a private key (d)');
  return problems;
}

function renderProblems(value: unknown): string[] {
  if (!isObject(value)) return ['deviceRenderOptions is not an object'];
  const problems: string[] = [];
  if (!['01', '02', '03'].includes(value['sdkInterface'] as string)) problems.push('deviceRenderOptions.sdkInterface is not 01, 02 or 03');
  const ui = value['sdkUiType'];
  if (!Array.isArray(ui) || ui.length < 1 || ui.length > 5 || !ui.every((u) => ['01', '02', '03', '04', '05'].includes(u as string))) {
    problems.push('deviceRenderOptions.sdkUiType is not a list of 01 to 05');
  }
  return problems;
}

function fieldProblems(o: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (!text(o['sdkAppID'], 36, 36) || !UUID.test(o['sdkAppID'] as string)) problems.push('sdkAppID is not a UUID');
  if (!text(o['sdkEncData'], 1, 64000)) problems.push('sdkEncData is missing');
  problems.push(...jwkProblems(o['sdkEphemPubKey']));
  const timeout = o['sdkMaxTimeout'];
  if (typeof timeout !== 'string' || !/^\d{2}$/.test(timeout) || Number(timeout) < 5) problems.push('sdkMaxTimeout is not 2 digits of at least 05');
  if (!text(o['sdkReferenceNumber'], 1, 32)) problems.push('sdkReferenceNumber is not text of 1 to 32 characters');
  if (!text(o['sdkTransID'], 36, 36) || !UUID.test(o['sdkTransID'] as string)) problems.push('sdkTransID is not a UUID');
  problems.push(...renderProblems(o['deviceRenderOptions']));
  return problems;
}

export function parseDeviceInfo(deviceInfo: string): DeviceInfoParse {
  const o = decoded(deviceInfo);
  if (!o) return { ok: false, problems: ['is not base64 of a JSON object (the SDK\'s authRequestParams)'] };
  const problems = fieldProblems(o);
  if (problems.length > 0) return { ok: false, problems };
  const render = o['deviceRenderOptions'] as Record<string, unknown>;
  return {
    ok: true,
    info: {
      sdkAppID: o['sdkAppID'] as string,
      sdkEncData: o['sdkEncData'] as string,
      sdkEphemPubKey: Object.fromEntries(Object.entries(o['sdkEphemPubKey'] as Record<string, unknown>).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
      sdkMaxTimeout: o['sdkMaxTimeout'] as string,
      sdkReferenceNumber: o['sdkReferenceNumber'] as string,
      sdkTransID: (o['sdkTransID'] as string).toLowerCase(),
      deviceRenderOptions: { sdkInterface: render['sdkInterface'] as DeviceRenderOptions['sdkInterface'], sdkUiType: [...(render['sdkUiType'] as string[])] },
    },
  };
}
