import { Layout } from './layout.js';

interface FormPageProps {
  readonly system: 'test' | 'live';
  readonly csrfToken: string;
  readonly next: string;
  readonly error?: string | undefined;
}

function ErrorMessage({ error }: { error: string | undefined }) {
  return error ? <p class="error" role="alert" id="form-error">{error}</p> : null;
}

/** E-mail address and password. */
export function SignInPage({ system, csrfToken, next, error, email }: FormPageProps & { readonly email?: string }) {
  return (
    <Layout title="Sign in" user={undefined} system={system} path="/console/sign-in">
      <form method="post" action="/console/sign-in" class="narrow" aria-describedby={error ? 'form-error' : undefined}>
        <ErrorMessage error={error} />
        <input type="hidden" name="_csrf" value={csrfToken} />
        <input type="hidden" name="next" value={next} />
        <label for="email">E-mail address</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={email ?? ''} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <p><button type="submit">Sign in</button></p>
      </form>
    </Layout>
  );
}

/** The second factor: a code of the authenticator app, or one of the recovery codes. */
export function SecondFactorPage({ system, csrfToken, next, error }: FormPageProps) {
  return (
    <Layout title="Enter your code" user={undefined} system={system} path="/console/sign-in/code">
      <form method="post" action="/console/sign-in/code" class="narrow">
        <ErrorMessage error={error} />
        <input type="hidden" name="_csrf" value={csrfToken} />
        <input type="hidden" name="next" value={next} />
        <label for="code">Code from your authenticator app</label>
        <p class="hint" id="code-hint">Six digits, or one of your recovery codes (xxxxx-xxxxx) if you have lost the app.</p>
        <input id="code" name="code" type="text" inputMode="numeric" autocomplete="one-time-code" required aria-describedby="code-hint" />
        <p><button type="submit">Continue</button></p>
      </form>
      <form method="post" action="/console/sign-out">
        <input type="hidden" name="_csrf" value={csrfToken} />
        <button type="submit" class="secondary">Cancel</button>
      </form>
    </Layout>
  );
}

/** A refusal of the sign-in that is not about the form (too many failures). */
export function SignInRefusedPage({ system, message }: { readonly system: 'test' | 'live'; readonly message: string }) {
  return (
    <Layout title="Sign in" user={undefined} system={system} path="/console/sign-in">
      <p class="error" role="alert">{message}</p>
      <p><a href="/console/sign-in">Back to sign-in</a></p>
    </Layout>
  );
}
