/**
 * What the widget does with the answer to POST /v1/checkouts/{id}/payment (the contract in
 * docs/widget.md): follow a redirect, send the shopper to the form's action, show field errors
 * so the shopper can correct them, show why a payment was declined (the tabs and accordion
 * layouts), or show a message and let the shopper try again.
 */
import { declineReasonOf, type DeclineReason } from './decline-reason.js';


export interface RedirectInstruction {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly parameters: readonly { readonly name: string; readonly value: string }[];
}

export interface FieldError {
  readonly name: string;
  readonly message: string;
}

export type Outcome =
  | { readonly kind: 'redirect'; readonly redirect: RedirectInstruction }
  | { readonly kind: 'return' }
  | { readonly kind: 'field-errors'; readonly errors: readonly FieldError[]; readonly code: string }
  | { readonly kind: 'declined'; readonly reason: DeclineReason; readonly code: string }
  | { readonly kind: 'expired' }
  | { readonly kind: 'failed'; readonly message: string; readonly code: string };

/** The checkout is unknown or its 30 minutes are over. */
const CHECKOUT_GONE = '200.300.404';

type Json = Record<string, unknown>;

function redirectOf(body: Json): RedirectInstruction | undefined {
  const redirect = body['redirect'] as Json | undefined;
  if (!redirect || typeof redirect['url'] !== 'string' || !/^https?:\/\//i.test(redirect['url'])) return undefined;
  const parameters = Array.isArray(redirect['parameters']) ? (redirect['parameters'] as Json[]) : [];
  return {
    url: redirect['url'],
    method: String(redirect['method'] ?? 'GET').toUpperCase() === 'POST' ? 'POST' : 'GET',
    parameters: parameters.map((p) => ({ name: String(p['name'] ?? ''), value: String(p['value'] ?? '') })).filter((p) => p.name !== ''),
  };
}

/** OPPWA puts parameterErrors inside `result`; older answers beside it. */
function fieldErrorsOf(body: Json, result: Json): FieldError[] {
  const listed = result['parameterErrors'] ?? body['parameterErrors'];
  const errors = Array.isArray(listed) ? (listed as Json[]) : [];
  return errors.map((error) => ({ name: String(error['name'] ?? ''), message: String(error['message'] ?? '') }));
}

/**
 * `inlineDeclines`: a declined payment stays on the page (the tabs and accordion layouts); else,
 * as OPPWA does, the merchant's result page shows it.
 */
export function outcomeOf(status: number, body: Json | undefined, inlineDeclines = false): Outcome {
  const result = (body?.['result'] ?? {}) as Json;
  const code = String(result['code'] ?? '');
  const description = String(result['description'] ?? '');
  if (!body) return { kind: 'failed', message: '', code: '' };
  const redirect = redirectOf(body);
  if (redirect) return { kind: 'redirect', redirect };
  const errors = fieldErrorsOf(body, result);
  // The gateway answers 200.300.404 for a gone checkout (its error names the id) and for some
  // missing parameters (their errors name them).
  if (code === CHECKOUT_GONE && errors.every((error) => error.name === 'id')) return { kind: 'expired' };
  if (status === 400 && errors.length > 0) return { kind: 'field-errors', errors, code };
  const reason = declineReasonOf(code);
  if (typeof body['id'] === 'string' && inlineDeclines && reason) return { kind: 'declined', reason, code };
  // A payment was made (approved, declined or pending): the merchant's result page takes over.
  if (typeof body['id'] === 'string' && code !== '') return { kind: 'return' };
  return { kind: 'failed', message: description, code };
}
