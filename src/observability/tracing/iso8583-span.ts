import type { Attributes } from '@opentelemetry/api';
import type { Exchange } from '../../connectors/iso8583/link.js';
import type { IsoMessage } from '../../connectors/iso8583/message.js';
import { insideRecordingSpan, SpanKind, withSpan } from './with-span.js';

const MTI = /^\d{4}$/;
const STAN = /^\d{6}$/;
const RESPONSE_CODE = /^[0-9A-Z]{2}$/;

/**
 * An exchange's attributes: the request's MTI and STAN (field 11), the answer's MTI and response
 * code (field 39), or why there was no answer. Only these fields, each checked against its
 * format, are read: never field 2, 14, 35, 45, 52, 55 or anything else a message holds.
 */
export function exchangeAttributes(request: IsoMessage, exchange: Exchange): Attributes {
  const attributes: Attributes = {};
  if (MTI.test(request.mti)) attributes['iso8583.mti'] = request.mti;
  const stan = request.fields[11];
  if (stan !== undefined && STAN.test(stan)) attributes['iso8583.stan'] = stan;
  if (!exchange.ok) {
    attributes['iso8583.no_answer'] = exchange.because;
    return attributes;
  }
  if (MTI.test(exchange.answer.mti)) attributes['iso8583.response.mti'] = exchange.answer.mti;
  const code = exchange.answer.fields[39];
  if (code !== undefined && RESPONSE_CODE.test(code)) attributes['iso8583.response_code'] = code;
  return attributes;
}

/** A client span around one request and its answer on the acquirer link, inside traced work (the link's own echoes are not). */
export function traceExchange<T extends { readonly request: IsoMessage; readonly exchange: Exchange }>(exchange: () => Promise<T>): Promise<T> {
  if (!insideRecordingSpan()) return exchange();
  return withSpan('iso8583 exchange', { kind: SpanKind.CLIENT }, async (span) => {
    const result = await exchange();
    const attributes = exchangeAttributes(result.request, result.exchange);
    span.setAttributes(attributes);
    if (attributes['iso8583.mti']) span.updateName(`iso8583 ${attributes['iso8583.mti']}`);
    return result;
  });
}
