import type { Iso8583LinkEventName, Observer } from '../../observability/observer.js';
import type { PoolEvent } from './pool.js';

const EVENT_NAMES: Readonly<Record<PoolEvent['type'], Iso8583LinkEventName>> = {
  'connected': 'connected',
  'connect-failed': 'connect_failed',
  'sign-on-failed': 'sign_on_failed',
  'echo-failed': 'echo_failed',
  'condemned': 'condemned',
  'disconnected': 'disconnected',
  'unmatched-answer': 'unmatched_answer',
};

/** The host label of a pool's series: host:port, one per acquirer host (never a slot or a message). */
export function hostLabel(endpoint: { readonly host: string; readonly port: number }): string {
  return `${endpoint.host}:${endpoint.port}`;
}

/** The pool's events as counts by host and event (gateway_iso8583_link_events_total). */
export function observePoolEvents(observer: Observer, host: string): (event: PoolEvent) => void {
  return (event) => observer.iso8583LinkEvent({ host, event: EVENT_NAMES[event.type] });
}

/** Several listeners of one pool's events (the log and the metrics); undefined when there are none. */
export function poolEventListeners(...listeners: ((event: PoolEvent) => void)[]): ((event: PoolEvent) => void) | undefined {
  if (listeners.length === 0) return undefined;
  if (listeners.length === 1) return listeners[0];
  return (event) => {
    for (const listener of listeners) listener(event);
  };
}
