export class AdminApiError extends Error {}

export type AdminForm = Record<string, string | undefined>;

/**
 * One call to a running gateway's /admin API: form-encoded in, the answer's own fields out
 * (without the envelope); a non-2xx answer becomes an AdminApiError with its result code.
 */
export function adminApiCaller(baseUrl: string, adminToken: string) {
  return async function call<T>(method: string, path: string, form?: AdminForm): Promise<T> {
    const body = form
      ? new URLSearchParams(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined)).toString()
      : undefined;
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body !== undefined ? { body } : {}),
    });
    const json = (await response.json()) as Record<string, unknown> & { result?: { code: string; description: string; parameterErrors?: unknown } };
    if (!response.ok) {
      const result = json.result;
      throw new AdminApiError(`${result?.code ?? response.status} ${result?.description ?? ''} ${JSON.stringify(result?.parameterErrors ?? '')}`);
    }
    const { result: _r, buildNumber: _b, timestamp: _t, ndc: _n, ...rest } = json;
    return rest as T;
  };
}
