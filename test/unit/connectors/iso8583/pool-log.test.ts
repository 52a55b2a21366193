import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PoolEvent } from '../../../../src/connectors/iso8583/pool.js';
import { logPoolEvents } from '../../../../src/connectors/iso8583/pool-log.js';

describe('the ISO 8583 pool\'s events as log lines', () => {
  const rows: readonly [PoolEvent, 'info' | 'warn', string][] = [
    [{ type: 'connected', link: 0 }, 'info', 'acquirer link connected and signed on'],
    [{ type: 'connect-failed', link: 1, reason: 'ECONNREFUSED' }, 'warn', 'acquirer link could not connect'],
    [{ type: 'sign-on-failed', link: 0, reason: 'answered 96' }, 'warn', 'acquirer link sign-on failed'],
    [{ type: 'echo-failed', link: 0, reason: 'timeout' }, 'warn', 'acquirer link echo failed'],
    [{ type: 'condemned', link: 0, reason: 'request-timeout' }, 'warn', 'acquirer link condemned: replaced, closed once its requests end'],
    [{ type: 'condemned', link: 1, reason: 'no-frame-while-busy' }, 'warn', 'acquirer link condemned: replaced, closed once its requests end'],
    [{ type: 'disconnected', link: 0, reason: 'closed-by-host' }, 'warn', 'acquirer link closed'],
    [{ type: 'disconnected', link: 0, reason: 'condemned' }, 'info', 'acquirer link closed'],
    [{ type: 'disconnected', link: 0, reason: 'pool-closed' }, 'info', 'acquirer link closed'],
    [{ type: 'unmatched-answer', mti: '0210' }, 'info', 'acquirer answer matched no open request'],
  ];
  for (const [event, level, message] of rows) {
    it(`${event.type}${'reason' in event ? ` (${event.reason})` : ''} → ${level} "${message}"`, () => {
      const lines: [string, object, string][] = [];
      const log = logPoolEvents({ info: (fields, msg) => lines.push(['info', fields, msg]), warn: (fields, msg) => lines.push(['warn', fields, msg]) }, 'acquirer-host');
      log(event);
      assert.deepEqual(lines, [[level, { connector: 'acquirer-host', ...event }, message]]);
    });
  }
});
