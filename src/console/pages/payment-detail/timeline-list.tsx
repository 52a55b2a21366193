import type { TimelineEvent } from '../../../domain/console/payment-timeline.js';
import { paymentHref, utc } from './format.js';

/** What happened, oldest first: each event with its time, and the family member it concerns when not this one. */
export function TimelineList({ events, currentId }: { events: readonly TimelineEvent[]; currentId: string }) {
  if (events.length === 0) return <p>Nothing recorded yet.</p>;
  return (
    <ol class="timeline">
      {events.map((event, index) => (
        <li key={index} class={`event event-${event.kind}`}>
          <time dateTime={event.at.toISOString()}>{utc(event.at)}</time>
          <span class="event-title">{event.title}</span>
          {event.transactionId && event.transactionId !== currentId ? (
            <a class="event-link" href={paymentHref(event.transactionId)}>{`on ${event.transactionId.slice(0, 8)}…`}</a>
          ) : null}
          {event.details.length > 0 ? (
            <dl class="event-details">
              {event.details.map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
