import { ROLE_TITLES, type Role } from '../../domain/access/roles.js';
import type { StoredUser } from '../../storage/repositories/console-users.js';
import type { ConsoleUser } from '../console-user.js';
import { Layout } from './layout.js';

export interface PersonPageProps {
  readonly system: 'test' | 'live';
  readonly user: ConsoleUser;
  readonly csrfToken: string;
  readonly person: StoredUser;
  /** The roles the viewer may give this person; empty: the viewer may not change them. */
  readonly roles: readonly Role[];
  readonly message?: string | undefined;
  readonly error?: string | undefined;
}

function PostButton({ action, csrfToken, label, danger }: { action: string; csrfToken: string; label: string; danger?: boolean }) {
  return (
    <form method="post" action={action}>
      <input type="hidden" name="_csrf" value={csrfToken} />
      <button type="submit" class={danger ? 'danger' : 'secondary'}>{label}</button>
    </form>
  );
}

/** One person: role, second factor, status, and what the viewer may change. */
export function PersonPage({ system, user, csrfToken, person, roles, message, error }: PersonPageProps) {
  const base = `/console/people/${person.id}`;
  return (
    <Layout title={person.email} user={user} system={system} path={base} csrfToken={csrfToken}>
      {message ? <p class="success" role="status">{message}</p> : null}
      {error ? <p class="error" role="alert">{error}</p> : null}
      <dl class="facts">
        <dt>Role</dt><dd>{ROLE_TITLES[person.role]}</dd>
        <dt>Merchant</dt><dd>{person.merchantId ?? 'none (operator)'}</dd>
        <dt>Two-step sign-in</dt><dd>{person.totpEnabledAt === null ? 'off' : 'on'}</dd>
        <dt>Status</dt><dd>{person.disabledAt === null ? 'active' : 'disabled'}</dd>
        <dt>Added</dt><dd>{person.createdAt.toISOString().slice(0, 10)}</dd>
      </dl>
      {roles.length > 0
        ? (
          <>
            <h2>Change</h2>
            <form method="post" action={`${base}/role`} class="actions">
              <input type="hidden" name="_csrf" value={csrfToken} />
              <div>
                <label for="role">Role</label>
                <select id="role" name="role">
                  {roles.map((role) => <option key={role} value={role} selected={person.role === role}>{ROLE_TITLES[role]}</option>)}
                </select>
              </div>
              <button type="submit">Change role</button>
            </form>
            <div class="actions">
              {person.disabledAt === null
                ? <PostButton action={`${base}/disable`} csrfToken={csrfToken} label="Disable" danger />
                : <PostButton action={`${base}/enable`} csrfToken={csrfToken} label="Enable" />}
              {person.totpEnabledAt !== null ? <PostButton action={`${base}/reset-second-factor`} csrfToken={csrfToken} label="Reset two-step sign-in" /> : null}
            </div>
          </>
        )
        : null}
      <p><a href="/console/people">Back to people</a></p>
    </Layout>
  );
}
