import { context, createContextKey, ROOT_CONTEXT, SpanKind, trace, type Context, type Link, type Span } from '@opentelemetry/api';
import { gatewayTracer, tracingOn } from './state.js';
import { failSpan } from './with-span.js';

/** The context a write is submitted in, kept with it until its group is written; undefined without tracing. */
export function submittedContext(): Context | undefined {
  return tracingOn ? context.active() : undefined;
}

/** A group written by one statement: its span is that statement's (traced-storage.ts names it), not a parent of it. */
interface GroupStatement {
  readonly span: Span;
  named: boolean;
}

const GROUP_STATEMENT = createContextKey('gateway group-commit statement');

/**
 * The span a single-statement group write's statement takes over, once: one span per group
 * instead of a group span and a statement span under it (spans are what tracing costs).
 */
export function claimGroupStatement(): Span | undefined {
  const group = context.active().getValue(GROUP_STATEMENT) as GroupStatement | undefined;
  if (!group || group.named) return undefined;
  group.named = true;
  return group.span;
}

/**
 * A group-commit write serves several requests at once. Its span is a child of the first
 * request's and links to every other request's span, so each payment's trace leads to the
 * statement that wrote it. The write runs in that span's context and never in whichever request
 * happened to start the group queue, which would otherwise adopt every later group. A write of
 * one statement is that statement's client span; a transaction's is a parent of the transaction.
 */
export function traceGroupWrite<T>(name: string, transactional: boolean, submitted: readonly (Context | undefined)[], write: () => Promise<T>): Promise<T> {
  const spans = submitted.flatMap((c) => {
    const span = c ? trace.getSpan(c) : undefined;
    return span?.isRecording() ? [span] : [];
  });
  if (spans.length === 0) return context.with(ROOT_CONTEXT, write);
  const parent = trace.setSpan(ROOT_CONTEXT, spans[0]!);
  const links: Link[] = spans.slice(1).map((span) => ({ context: span.spanContext() }));
  const attributes = { 'db.system.name': 'postgresql', 'db.operation.batch.size': submitted.length, 'gateway.group_commit.name': name };
  const kind = transactional ? SpanKind.INTERNAL : SpanKind.CLIENT;
  const span = gatewayTracer().startSpan(`group commit ${name}`, { kind, attributes, links }, parent);
  let inGroup = trace.setSpan(parent, span);
  if (!transactional) inGroup = inGroup.setValue(GROUP_STATEMENT, { span, named: false } satisfies GroupStatement);
  return context.with(inGroup, write).then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      failSpan(span, error);
      span.end();
      throw error;
    },
  );
}
