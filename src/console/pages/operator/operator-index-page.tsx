import type { ComponentChildren } from 'preact';
import { mayPerform, type Action } from '../../../domain/access/permissions.js';
import { DeveloperLayout, type PageFrame } from '../developers/developer-request.js';

export const OPERATOR = '/console/operator';

/** The operator's pages, each with the action a role needs to open it (operators only). */
export const OPERATOR_PAGES: readonly { readonly href: string; readonly label: string; readonly action: Action; readonly describe: string }[] = [
  { href: `${OPERATOR}/status`, label: 'System status', action: 'system.view', describe: 'Readiness checks, job worker processes, versions, migrations, database and Redis health.' },
  { href: `${OPERATOR}/jobs`, label: 'Background jobs', action: 'jobs.view', describe: 'Jobs by kind and state; failed and given-up jobs with their last error; run them again.' },
  { href: `${OPERATOR}/entities`, label: 'Merchants and channels', action: 'entities.view', describe: 'Create merchants and channels; their 3-D Secure requirement, legacy authentication, unknown parameters, connector details.' },
  { href: `${OPERATOR}/routes`, label: 'Connectors and routes', action: 'routes.view', describe: 'Which entity, brand and currency goes to which connector; add, disable, rotate credentials.' },
  { href: `${OPERATOR}/vault`, label: 'Vault keys', action: 'vault.view', describe: "The master key in use, the data keys each master key wraps, and the rotation to the current one." },
];

export function OperatorIndexPage({ frame }: { frame: PageFrame }) {
  const pages = OPERATOR_PAGES.filter((page) => mayPerform(frame.user.role, page.action));
  return (
    <DeveloperLayout frame={frame} title="Operator">
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

/** Every operator page: a way back to the operator's index above its content. */
export function OperatorLayout({ frame, title, children }: { frame: PageFrame; title: string; children: ComponentChildren }) {
  return (
    <DeveloperLayout frame={frame} title={title}>
      <p><a href={OPERATOR}>Operator</a></p>
      {children}
    </DeveloperLayout>
  );
}

/** A one-line answer after a change (the `done` of the redirect), in a live region. */
export function Done({ text }: { text: string | undefined }) {
  return text ? <p class="success" role="status">{text}</p> : null;
}
