import type { Writable } from 'node:stream';
import type { JobLogger } from './job-types.js';

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;

export type LogLevelName = keyof typeof LEVELS;

/**
 * JSON lines in pino's shape, for the stand-alone worker process (the gateway passes app.log).
 * Callers log ids, statuses and timings only, never a secret or a notification body.
 */
export function jsonLogger(level: LogLevelName, out: Writable = process.stdout, base: object = {}): JobLogger {
  const threshold = LEVELS[level];
  const write = (value: number) => (fields: object, message: string) => {
    if (value < threshold) return;
    out.write(`${JSON.stringify({ level: value, time: Date.now(), pid: process.pid, ...base, ...fields, msg: message })}\n`);
  };
  return { debug: write(LEVELS.debug), info: write(LEVELS.info), warn: write(LEVELS.warn), error: write(LEVELS.error) };
}
