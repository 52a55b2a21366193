import { ROLE_TITLES } from '../../domain/access/roles.js';
import type { StoredSession } from '../../storage/repositories/console-sessions.js';
import type { StoredUser } from '../../storage/repositories/console-users.js';
import type { ConsoleUser } from '../console-user.js';
import { Layout } from './layout.js';

export interface AccountPageProps {
  readonly system: 'test' | 'live';
  readonly user: ConsoleUser;
  readonly csrfToken: string;
  readonly person: StoredUser;
  readonly sessions: readonly StoredSession[];
  readonly unusedRecoveryCodes: number;
  readonly message?: string | undefined;
}

function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The signed-in person's own account: who they are, their second factor, password and sessions. */
export function AccountPage({ system, user, csrfToken, person, sessions, unusedRecoveryCodes, message }: AccountPageProps) {
  return (
    <Layout title="Your account" user={user} system={system} path="/console/account" csrfToken={csrfToken}>
      {message ? <p class="success" role="status">{message}</p> : null}
      <dl class="facts">
        <dt>E-mail address</dt><dd>{person.email}</dd>
        <dt>Role</dt><dd>{ROLE_TITLES[person.role]}</dd>
        <dt>Merchant</dt><dd>{person.merchantId ?? 'none (operator)'}</dd>
      </dl>
      <h2>Two-step sign-in</h2>
      {person.totpEnabledAt === null
        ? <p>Off. <a href="/console/account/second-factor">Set up an authenticator app</a></p>
        : (
          <div class="actions">
            <p>On since {when(person.totpEnabledAt)}; {unusedRecoveryCodes} unused recovery codes.</p>
            <form method="post" action="/console/account/recovery-codes">
              <input type="hidden" name="_csrf" value={csrfToken} />
              <button type="submit" class="secondary">Make new recovery codes</button>
            </form>
          </div>
        )}
      <h2>Password</h2>
      <p><a href="/console/account/password">Change your password</a></p>
      <h2>Sessions</h2>
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Sessions">
        <table>
          <caption class="visually-hidden">Where you are signed in</caption>
          <thead><tr><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col">Address</th><th scope="col">Browser</th></tr></thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.idHash}>
                <td>{when(session.createdAt)}{session.idHash === user.sessionId ? ' (this one)' : ''}</td>
                <td>{when(session.lastSeenAt)}</td>
                <td>{session.address}</td>
                <td>{session.userAgent.slice(0, 80)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form method="post" action="/console/account/sign-out-everywhere">
        <input type="hidden" name="_csrf" value={csrfToken} />
        <p><button type="submit" class="danger">Sign out everywhere</button></p>
      </form>
    </Layout>
  );
}

export interface PasswordPageProps {
  readonly system: 'test' | 'live';
  readonly user: ConsoleUser;
  readonly csrfToken: string;
  readonly mustChange: boolean;
  readonly errors?: { readonly current?: string | undefined; readonly password?: string | undefined } | undefined;
}

/** Changing the password; the first sign-in with a one-time password lands here. */
export function PasswordPage({ system, user, csrfToken, mustChange, errors }: PasswordPageProps) {
  return (
    <Layout title="Change your password" user={user} system={system} path="/console/account/password" csrfToken={csrfToken}>
      {mustChange ? <p class="notice">You signed in with a one-time password. Choose your own to continue.</p> : null}
      <form method="post" action="/console/account/password" class="narrow">
        <input type="hidden" name="_csrf" value={csrfToken} />
        <label for="current">Current password</label>
        <input id="current" name="current" type="password" autocomplete="current-password" required aria-invalid={errors?.current ? 'true' : undefined} aria-describedby={errors?.current ? 'current-error' : undefined} />
        {errors?.current ? <p class="field-error" id="current-error">The current password {errors.current}.</p> : null}
        <label for="password">New password</label>
        <p class="hint" id="password-hint">At least 12 characters. A few unrelated words make a good one.</p>
        <input id="password" name="password" type="password" autocomplete="new-password" required minLength={12} aria-invalid={errors?.password ? 'true' : undefined} aria-describedby={errors?.password ? 'password-hint password-error' : 'password-hint'} />
        {errors?.password ? <p class="field-error" id="password-error">The new password {errors.password}.</p> : null}
        <p><button type="submit">Change password</button></p>
      </form>
    </Layout>
  );
}
