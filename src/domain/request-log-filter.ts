import type { ApiRequestFilter } from '../storage/repositories/api-request-log.js';
import { ENTITY_ID_PATTERN } from './ids.js';

/** The request log's filter form, as typed (echoed back into the form). */
export interface RequestLogQuery {
  readonly entity: string;
  readonly method: string;
  readonly path: string;
  readonly status: string;
  readonly resultCode: string;
  readonly from: string;
  readonly to: string;
}

export const REQUEST_LOG_FIELDS = ['entity', 'method', 'path', 'status', 'resultCode', 'from', 'to'] as const;

export const REQUEST_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
const PATH_CONTAINS_LENGTH_MAX = 200;
const DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}))?$/;

export type ParsedRequestLogFilter =
  | { readonly ok: true; readonly filter: Omit<ApiRequestFilter, 'merchantId'> }
  | { readonly ok: false; readonly errors: Readonly<Record<string, string>> };

/** A date (the day, UTC) or a date and time (UTC); `to` on a bare day means up to the end of that day. */
function parseTime(raw: string, endOfDay: boolean): Date | undefined {
  const match = DATE.exec(raw);
  if (!match) return undefined;
  const at = new Date(`${match[1]}T${match[2] ?? '00:00'}:00Z`);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== match[1]) return undefined;
  return endOfDay && !match[2] ? new Date(at.getTime() + 86_400_000) : at;
}

/** An exact status (404) or a class (4xx). */
function parseStatus(raw: string): { status?: number; statusClass?: number } | undefined {
  const exact = /^([1-5]\d\d)$/.exec(raw);
  if (exact) return { status: Number(exact[1]) };
  const klass = /^([1-5])xx$/i.exec(raw);
  return klass ? { statusClass: Number(klass[1]) } : undefined;
}

type Filter = Omit<ApiRequestFilter, 'merchantId'>;
type FieldRule = (raw: string) => { readonly set: Partial<Filter> } | { readonly error: string };

const set = (value: Partial<Filter>) => ({ set: value });

/** One rule per field: what a filled-in field adds to the filter, or why it cannot. */
const RULES: Readonly<Record<keyof RequestLogQuery, FieldRule>> = {
  entity: (raw) => (ENTITY_ID_PATTERN.test(raw) ? set({ entityId: raw }) : { error: 'an entity id is 32 hex characters' }),
  method: (raw) => ((REQUEST_METHODS as readonly string[]).includes(raw) ? set({ method: raw }) : { error: `one of ${REQUEST_METHODS.join(', ')}` }),
  path: (raw) => (raw.length <= PATH_CONTAINS_LENGTH_MAX ? set({ pathContains: raw }) : { error: `at most ${PATH_CONTAINS_LENGTH_MAX} characters` }),
  status: (raw) => {
    const status = parseStatus(raw);
    return status ? set(status) : { error: 'a status such as 400, or a class such as 4xx' };
  },
  resultCode: (raw) => (/^\d{3}\.\d{3}\.\d{3}$/.test(raw) ? set({ resultCode: raw }) : { error: 'a result code such as 800.100.151' }),
  from: (raw) => timeRule(raw, false, (at) => ({ from: at })),
  to: (raw) => timeRule(raw, true, (at) => ({ to: at })),
};

function timeRule(raw: string, endOfDay: boolean, into: (at: Date) => Partial<Filter>) {
  const at = parseTime(raw, endOfDay);
  return at ? set(into(at)) : { error: 'a day (2026-11-27) or a day and time in UTC (2026-11-27T14:30)' };
}

/** Checks each field of the form; every broken field gets its own message. */
export function parseRequestLogQuery(query: RequestLogQuery): ParsedRequestLogFilter {
  const errors: Record<string, string> = {};
  let filter: Filter = {};
  for (const name of REQUEST_LOG_FIELDS) {
    const raw = query[name].trim();
    if (raw === '') continue;
    const outcome = RULES[name](raw);
    if ('error' in outcome) errors[name] = outcome.error;
    else filter = { ...filter, ...outcome.set };
  }
  if (filter.from && filter.to && filter.from >= filter.to) errors['to'] = 'must be after "from"';
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, filter };
}
