import type { ConsoleUser } from '../console-user.js';
import { Layout } from './layout.js';

export interface EnrollPageProps {
  readonly system: 'test' | 'live';
  readonly user: ConsoleUser | undefined;
  readonly csrfToken: string;
  /** Where the form posts: the sign-in's enrollment or the account's. */
  readonly action: string;
  readonly next: string;
  readonly secret: string;
  readonly qrDataUri: string;
  readonly error?: string | undefined;
}

/** Setting up an authenticator app: the QR code and the secret, then the first code to confirm it. */
export function EnrollPage({ system, user, csrfToken, action, next, secret, qrDataUri, error }: EnrollPageProps) {
  return (
    <Layout title="Set up two-step sign-in" user={user} system={system} path={action} csrfToken={csrfToken}>
      <p>Scan this code with an authenticator app (such as Google Authenticator, 1Password or FreeOTP), or type the key into it. It is shown on this page only.</p>
      <img class="qr" src={qrDataUri} width={220} height={220} alt="QR code of your authenticator key (the same key is written below)" />
      <p>Key: <code class="secret">{secret.replace(/(.{4})/g, '$1 ').trim()}</code></p>
      <form method="post" action={action} class="narrow">
        {error ? <p class="error" role="alert">{error}</p> : null}
        <input type="hidden" name="_csrf" value={csrfToken} />
        <input type="hidden" name="next" value={next} />
        <label for="code">The six-digit code the app shows now</label>
        <input id="code" name="code" type="text" inputMode="numeric" autocomplete="one-time-code" required />
        <p><button type="submit">Confirm</button></p>
      </form>
    </Layout>
  );
}

/** The recovery codes, shown once: each lets the person in once without the app. */
export function RecoveryCodesPage({ system, user, csrfToken, codes, continueHref }: { system: 'test' | 'live'; user: ConsoleUser | undefined; csrfToken: string; codes: readonly string[]; continueHref: string }) {
  return (
    <Layout title="Your recovery codes" user={user} system={system} path="/console/account" csrfToken={csrfToken}>
      <p class="notice">Keep these codes somewhere safe (a password manager, or printed). Each one signs you in once if you lose your authenticator app. They are shown only now.</p>
      <ul class="recovery-codes">
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ul>
      <p><a class="button" href={continueHref}>I have kept them: continue</a></p>
    </Layout>
  );
}
