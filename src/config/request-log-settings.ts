import { readBoolean, readInteger, type Env } from './env-readers.js';

/** The merchants' request log (docs/console.md, "Request log"). */
export interface RequestLogSettings {
  readonly enabled: boolean;
  readonly retentionDays: number;
}

export const REQUEST_LOG_VARIABLES = [
  ['REQUEST_LOG_ENABLED', 'true', "`false` stops keeping the merchants' API requests for the console's request log."],
  ['REQUEST_LOG_RETENTION_DAYS', '14', 'Days an API request stays in the request log; older ones are deleted hourly.'],
] as const;

export function collectRequestLogSettings(env: Env, problems: string[]): RequestLogSettings {
  return Object.freeze({
    enabled: readBoolean(env, 'REQUEST_LOG_ENABLED', true, problems),
    retentionDays: readInteger(env, 'REQUEST_LOG_RETENTION_DAYS', 14, 1, 400, problems),
  });
}
