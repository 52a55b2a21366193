import { ROLE_TITLES, type Role } from '../../domain/access/roles.js';
import type { StoredUser } from '../../storage/repositories/console-users.js';
import type { ConsoleUser } from '../console-user.js';
import { Layout } from './layout.js';

interface PageBase {
  readonly system: 'test' | 'live';
  readonly user: ConsoleUser;
  readonly csrfToken: string;
}

function statusOf(person: StoredUser, now: Date): string {
  if (person.disabledAt !== null) return 'Disabled';
  if (person.lockedUntil !== null && person.lockedUntil > now) return 'Locked (failed sign-ins)';
  return 'Active';
}

export interface PeoplePageProps extends PageBase {
  readonly people: readonly StoredUser[];
  readonly now: Date;
  readonly mayManage: boolean;
  /** The merchant whose second-factor rule the viewer may set, and its current value; absent: no form. */
  readonly merchantSecurity?: { readonly merchantId: string; readonly required: boolean } | undefined;
  readonly message?: string | undefined;
}

/** The people the viewer may see, with their roles. */
export function PeoplePage({ system, user, csrfToken, people, now, mayManage, merchantSecurity, message }: PeoplePageProps) {
  return (
    <Layout title="People" user={user} system={system} path="/console/people" csrfToken={csrfToken}>
      {message ? <p class="success" role="status">{message}</p> : null}
      {mayManage ? <p><a class="button" href="/console/people/new">Add a person</a></p> : null}
      <div class="table-wrap" tabIndex={0} role="region" aria-label="People">
        <table>
          <caption class="visually-hidden">People and their roles</caption>
          <thead><tr><th scope="col">E-mail address</th><th scope="col">Role</th>{user.merchantId === null ? <th scope="col">Merchant</th> : null}<th scope="col">Two-step sign-in</th><th scope="col">Status</th></tr></thead>
          <tbody>
            {people.map((person) => (
              <tr key={person.id}>
                <td><a href={`/console/people/${person.id}`}>{person.email}</a></td>
                <td>{ROLE_TITLES[person.role]}</td>
                {user.merchantId === null ? <td>{person.merchantId ?? 'operator'}</td> : null}
                <td>{person.totpEnabledAt === null ? 'off' : 'on'}</td>
                <td>{statusOf(person, now)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {merchantSecurity ? <MerchantSecurityForm csrfToken={csrfToken} {...merchantSecurity} /> : null}
    </Layout>
  );
}

function MerchantSecurityForm({ csrfToken, merchantId, required }: { csrfToken: string; merchantId: string; required: boolean }) {
  return (
    <form method="post" action="/console/people/security">
      <h2>Two-step sign-in for everyone</h2>
      <p>{required ? 'Every person of this merchant must sign in with an authenticator app.' : 'People of this merchant choose whether to use an authenticator app.'}</p>
      <input type="hidden" name="_csrf" value={csrfToken} />
      <input type="hidden" name="merchantId" value={merchantId} />
      <input type="hidden" name="required" value={required ? 'false' : 'true'} />
      <button type="submit" class="secondary">{required ? 'Stop requiring it' : 'Require it'}</button>
    </form>
  );
}

export interface NewPersonPageProps extends PageBase {
  readonly roles: readonly Role[];
  readonly values?: { readonly email?: string; readonly role?: string; readonly merchantId?: string } | undefined;
  readonly error?: { readonly field: string; readonly problem: string } | undefined;
}

const FIELD_NAMES: Readonly<Record<string, string>> = { email: 'The e-mail address', role: 'The role', merchantId: 'The merchant', password: 'The password' };

/** Adding a person: a one-time password is made and shown once, to hand over. */
export function NewPersonPage({ system, user, csrfToken, roles, values, error }: NewPersonPageProps) {
  return (
    <Layout title="Add a person" user={user} system={system} path="/console/people/new" csrfToken={csrfToken}>
      <form method="post" action="/console/people/new" class="narrow">
        {error ? <p class="error" role="alert">{FIELD_NAMES[error.field] ?? error.field} {error.problem}.</p> : null}
        <input type="hidden" name="_csrf" value={csrfToken} />
        <label for="email">E-mail address</label>
        <input id="email" name="email" type="email" required value={values?.email ?? ''} />
        <label for="role">Role</label>
        <select id="role" name="role">
          {roles.map((role) => <option key={role} value={role} selected={values?.role === role}>{ROLE_TITLES[role]}</option>)}
        </select>
        {user.merchantId === null
          ? (<>
            <label for="merchantId">Merchant id (for a merchant role; empty for an operator)</label>
            <input id="merchantId" name="merchantId" type="text" value={values?.merchantId ?? ''} pattern="[0-9a-f]{32}" />
          </>)
          : null}
        <p><button type="submit">Add</button></p>
      </form>
    </Layout>
  );
}

/** The one-time password of a person just added, shown once. */
export function PersonAddedPage({ system, user, csrfToken, email, password }: PageBase & { email: string; password: string }) {
  return (
    <Layout title="Person added" user={user} system={system} path="/console/people/new" csrfToken={csrfToken}>
      <p>Give {email} this one-time password by a safe way (not in the same e-mail as the address of the console). They choose their own at the first sign-in. It is shown only now.</p>
      <p><code class="secret">{password}</code></p>
      <p><a href="/console/people">Back to people</a></p>
    </Layout>
  );
}
