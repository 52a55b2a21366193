import { resultCode } from './catalogue.js';

/** One broken request parameter, as the public interface reports it. */
export interface ParameterError {
  readonly name: string;
  /** The value as sent, or masked for secret fields; never a card number or CVV in clear. */
  readonly value: string;
  readonly message: string;
}

/**
 * A failure with a catalogue result code. Thrown anywhere below the HTTP layer; the error
 * handler turns it into the envelope with the code's HTTP status.
 */
export class GatewayError extends Error {
  readonly code: string;
  readonly httpStatus: number;
  readonly parameterErrors: readonly ParameterError[] | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    code: string,
    options: { parameterErrors?: readonly ParameterError[]; httpStatus?: number; headers?: Record<string, string> } = {},
  ) {
    const entry = resultCode(code);
    super(`${code} ${entry.description}`);
    this.name = 'GatewayError';
    this.code = code;
    this.httpStatus = options.httpStatus ?? entry.httpStatus;
    this.parameterErrors = options.parameterErrors;
    this.headers = options.headers;
  }
}
