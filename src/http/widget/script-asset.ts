import { createHash } from 'node:crypto';

// Placeholder until the widget bundle lands (the widget branch replaces this file).
export interface WidgetScript {
  readonly bytes: Buffer;
  readonly integrity: string;
  readonly version: string;
}

let cached: WidgetScript | undefined;

export function loadWidgetScript(): WidgetScript {
  if (cached) return cached;
  const bytes = Buffer.from('/* paymentWidgets.js */\n');
  const digest = createHash('sha384').update(bytes).digest();
  cached = { bytes, integrity: `sha384-${digest.toString('base64')}`, version: digest.toString('hex').slice(0, 16) };
  return cached;
}
