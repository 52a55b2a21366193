import { context, ROOT_CONTEXT, trace, type Context, type Link } from '@opentelemetry/api';
import { tracingOn } from './state.js';
import { withSpan } from './with-span.js';

/** The context a write is submitted in, kept with it until its group is written; undefined without tracing. */
export function submittedContext(): Context | undefined {
  return tracingOn ? context.active() : undefined;
}

/**
 * A group-commit write serves several requests at once. Its span is a child of the first
 * request's and links to every other request's span, so each payment's trace leads to the
 * statement that wrote it. The write runs in that span's context and never in whichever request
 * happened to start the group queue, which would otherwise adopt every later group.
 */
export function traceGroupWrite<T>(name: string, submitted: readonly (Context | undefined)[], write: () => Promise<T>): Promise<T> {
  const spans = submitted.flatMap((c) => {
    const span = c ? trace.getSpan(c) : undefined;
    return span?.isRecording() ? [span] : [];
  });
  if (spans.length === 0) return context.with(ROOT_CONTEXT, write);
  const parent = trace.setSpan(ROOT_CONTEXT, spans[0]!);
  const links: Link[] = spans.slice(1).map((span) => ({ context: span.spanContext() }));
  const attributes = { 'db.system.name': 'postgresql', 'db.operation.batch.size': submitted.length, 'gateway.group_commit.name': name };
  return withSpan(`group commit ${name}`, { parent, links, attributes }, write);
}
