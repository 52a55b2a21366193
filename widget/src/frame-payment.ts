/**
 * The poster frame's payment: it gathers the other secure fields of its form from their frames,
 * adds the page's fields (expiry, holder, brand, custom parameters, the result URL) and posts to
 * POST /v1/checkouts/{id}/payment on its own origin. The answer goes back to the page without
 * anything that could carry the number (parameterErrors' values are dropped).
 */
import { takesValue, type Binding } from './frame-binding.js';
import type { FrameSettings, FrameToFrame, SecureField } from './protocol.js';

const COLLECT_TIMEOUT_MS = 2_000;
/** The parameter each secure field is sent as. */
const PARAMETER: Readonly<Record<SecureField, string>> = { number: 'card.number', cvv: 'card.cvv' };

function collect(channel: BroadcastChannel, binding: Binding, wanted: readonly SecureField[]): Promise<Map<SecureField, string>> {
  const values = new Map<SecureField, string>();
  if (wanted.length === 0) return Promise.resolve(values);
  return new Promise((resolve) => {
    const listener = (event: MessageEvent<FrameToFrame>) => {
      const message = event.data;
      if (event.origin !== location.origin || message.type !== 'value' || !wanted.includes(message.field) || !takesValue(binding, message)) return;
      values.set(message.field, message.value);
      if (values.size === wanted.length) finish();
    };
    const timer = setTimeout(() => finish(), COLLECT_TIMEOUT_MS);
    const finish = () => {
      clearTimeout(timer);
      channel.removeEventListener('message', listener);
      resolve(values);
    };
    channel.addEventListener('message', listener);
    channel.postMessage({ type: 'collect', from: binding.self.id } satisfies FrameToFrame);
  });
}

type Json = Record<string, unknown>;

function namesAndMessages(errors: unknown): unknown {
  return Array.isArray(errors) ? errors.map((error: Json) => ({ name: error['name'], message: error['message'] })) : errors;
}

/**
 * parameterErrors without their values (in `result`, as OPPWA answers, or beside it): a refused
 * card.number or card.cvv would otherwise come back in them, however the gateway masks them.
 */
function withoutValues(body: Json): Json {
  const result = body['result'] as Json | undefined;
  return {
    ...body,
    ...(body['parameterErrors'] ? { parameterErrors: namesAndMessages(body['parameterErrors']) } : {}),
    ...(result?.['parameterErrors'] ? { result: { ...result, parameterErrors: namesAndMessages(result['parameterErrors']) } } : {}),
  };
}

export async function postPayment(
  settings: FrameSettings,
  channel: BroadcastChannel,
  binding: Binding,
  ownValue: string,
  pageFields: readonly (readonly [string, string])[],
): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  const secure = await collect(channel, binding, settings.collect);
  secure.set(settings.field, ownValue);
  const form = new URLSearchParams();
  for (const [name, value] of pageFields) if (!Object.values(PARAMETER).includes(name)) form.append(name, value);
  for (const [field, value] of secure) if (value !== '') form.append(PARAMETER[field], value);
  try {
    const response = await fetch(`../checkouts/${encodeURIComponent(settings.checkoutId)}/${settings.purpose === 'registration' ? 'registration' : 'payment'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      credentials: 'omit',
    });
    const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    return { status: response.status, body: body && withoutValues(body) };
  } catch {
    return { status: 0, body: undefined };
  }
}
