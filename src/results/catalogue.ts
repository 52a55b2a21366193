import { readFileSync } from 'node:fs';

/** One entry of the result-code catalogue. */
export interface ResultCode {
  readonly code: string;
  readonly description: string;
  /** HTTP status a response carrying this code gets unless the caller knows better. */
  readonly httpStatus: number;
}

// The catalogue is a copy of shared/reference/result-codes.tsv; a test keeps the two in step.
const CATALOGUE_FILE = new URL('./result-codes.tsv', import.meta.url);

/**
 * HTTP statuses that differ from the spec's rule "200 for success, 400 for everything else"
 * (Errors section). Listed codes only: every other non-success code is a 400.
 */
const HTTP_STATUS_OVERRIDES: Readonly<Record<string, number>> = {
  '800.900.300': 401, // invalid authentication information
  '800.900.301': 403, // insufficient rights
  '700.400.580': 404, // cannot find transaction
  '200.300.403': 405, // invalid HTTP method
  '200.100.101': 415, // not url-encoded
  '200.100.103': 413, // structural errors: used for bodies over the limit
  '800.120.100': 429, // throttled
  '900.100.203': 500, // error on the internal gateway: a bug of ours
  '999.999.888': 503, // database unavailable: the client may retry
  '800.800.800': 503, // payment system unavailable
  '800.800.801': 503, // maintenance
};

/** "Rejected, 3DS and risk checks" (compatibility.md): 000.* codes that are declines, answered like any decline. */
const REJECTED_000 = /^000\.400\.(1[0-9][1-9]|2)/;

function httpStatusFor(code: string): number {
  return HTTP_STATUS_OVERRIDES[code] ?? (code.startsWith('000.') && !REJECTED_000.test(code) ? 200 : 400);
}

function parseCatalogue(tsv: string): Map<string, ResultCode> {
  const codes = new Map<string, ResultCode>();
  for (const line of tsv.split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const [code, description] = line.split('\t');
    if (!code || description === undefined) throw new Error(`malformed result-code line: ${line}`);
    codes.set(code, Object.freeze({ code, description, httpStatus: httpStatusFor(code) }));
  }
  return codes;
}

export const resultCodes: ReadonlyMap<string, ResultCode> = parseCatalogue(readFileSync(CATALOGUE_FILE, 'utf8'));

/** The catalogue entry of a code; an unknown code is a programming error, so it throws. */
export function resultCode(code: string): ResultCode {
  const entry = resultCodes.get(code);
  if (!entry) throw new Error(`result code ${code} is not in the catalogue`);
  return entry;
}

/** The published groups clients match codes against (compatibility.md), first match wins. */
export const RESULT_GROUPS: ReadonlyArray<{ readonly name: string; readonly pattern: RegExp }> = [
  { name: 'success', pattern: /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/ },
  { name: 'successReview', pattern: /^(000\.400\.0[^3]|000\.400\.100)/ },
  { name: 'pending', pattern: /^(000\.200)/ },
  { name: 'pendingLong', pattern: /^(800\.400\.5|100\.400\.500)/ },
];

export function isSuccessCode(code: string): boolean {
  return RESULT_GROUPS[0]!.pattern.test(code) || RESULT_GROUPS[1]!.pattern.test(code);
}

export function isPendingCode(code: string): boolean {
  return RESULT_GROUPS[2]!.pattern.test(code) || RESULT_GROUPS[3]!.pattern.test(code);
}
