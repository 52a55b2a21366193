import { mayPerform, type Action } from '../../../domain/access/permissions.js';
import { DeveloperLayout, type PageFrame } from './developer-request.js';

/** The developers' tools, each with the action a role needs to open it. */
export const DEVELOPER_PAGES: readonly { readonly href: string; readonly label: string; readonly action: Action; readonly describe: string }[] = [
  { href: '/console/developers/credentials', label: 'API credentials', action: 'credentials.view', describe: 'Access tokens of the merchant and its channels: create, see their last use, revoke.' },
  { href: '/console/developers/webhooks', label: 'Webhooks', action: 'webhooks.view', describe: 'Where notifications go: register, rotate the secret, send a test, read the delivery log, resend.' },
  { href: '/console/developers/requests', label: 'Request log', action: 'request-log.view', describe: 'Recent API requests with their status and result code: why was this refused?' },
];

/**
 * Pages of other areas a developer sets up: listed here too because a developer's role has no
 * Settlement entry in the navigation (settlement.view), yet wires the merchant's SFTP client.
 * Not part of DEVELOPER_PAGES, which decides who may open this index.
 */
const RELATED_PAGES: typeof DEVELOPER_PAGES = [
  { href: '/console/settlement/delivery', label: 'Reconciliation file delivery', action: 'settlement.delivery.view', describe: 'The SFTP keys that may fetch the daily reconciliation files, and the server they are pushed to.' },
];

export function DevelopersIndexPage({ frame }: { frame: PageFrame }) {
  const pages = [...DEVELOPER_PAGES, ...RELATED_PAGES].filter((page) => mayPerform(frame.user.role, page.action));
  return (
    <DeveloperLayout frame={frame} title="Developers">
      <ul class="tool-list">
        {pages.map((page) => (
          <li key={page.href}>
            <a href={page.href}>{page.label}</a>
            <p>{page.describe}</p>
          </li>
        ))}
      </ul>
    </DeveloperLayout>
  );
}

/** An operator sees every merchant: the developers' pages ask which one first. */
export function MerchantPicker({ action, merchants, current }: { action: string; merchants: readonly { id: string; name: string }[]; current: string | undefined }) {
  return (
    <form method="get" action={action} class="merchant-picker">
      <label for="merchant">Merchant</label>
      <select id="merchant" name="merchant">
        <option value="">Choose a merchant</option>
        {merchants.map((m) => <option key={m.id} value={m.id} selected={m.id === current}>{`${m.name} (${m.id})`}</option>)}
      </select>{' '}
      <button type="submit" class="secondary">Show</button>
    </form>
  );
}
