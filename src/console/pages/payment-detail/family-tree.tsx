import type { FamilyNode } from '../../../operations/console/load-payment-detail.js';
import { money, paymentHref, utc } from './format.js';

function Member({ node, currentId }: { node: FamilyNode; currentId: string }) {
  const s = node.summary;
  const label = `${s.paymentType} ${money(s.amountMinor, s.currency)}`;
  return (
    <li>
      {s.id === currentId ? <strong aria-current="page">{label}</strong> : <a href={paymentHref(s.id)}>{label}</a>}{' '}
      <span class={`status status-${s.status}`}>{s.status}</span> <code>{s.resultCode}</code>{' '}
      <span class="muted">{utc(s.createdAt)} · {s.id}</span>
      {node.children.length > 0 ? (
        <ul>
          {node.children.map((child) => <Member key={child.summary.id} node={child} currentId={currentId} />)}
        </ul>
      ) : null}
    </li>
  );
}

/** The family from its first transaction down (PA → CP → RF, RV, CB/CR), each a link to its own page. */
export function FamilyTree({ family, currentId }: { family: FamilyNode; currentId: string }) {
  return (
    <ul class="family">
      <Member node={family} currentId={currentId} />
    </ul>
  );
}
