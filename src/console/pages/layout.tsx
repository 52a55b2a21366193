import type { ComponentChildren } from 'preact';
import { ROLE_TITLES } from '../../domain/access/roles.js';
import type { ConsoleUser } from '../console-user.js';
import { navigationFor } from '../navigation.js';

export interface LayoutProps {
  /** The page's own title; the document title adds the console's name. */
  readonly title: string;
  readonly user: ConsoleUser | undefined;
  readonly system: 'test' | 'live';
  /** The path of the page, to mark the current navigation entry. */
  readonly path: string;
  /** The session's CSRF token, for the sign-out form (every change is a POST with the token). */
  readonly csrfToken?: string | undefined;
  /** The page's own scripts from /console/assets (the overview's charts), run in order after parsing. */
  readonly scripts?: readonly string[] | undefined;
  readonly children: ComponentChildren;
}

/** Every console page: the test-system mark, the navigation the person's role allows, the page. */
export function Layout({ title, user, system, path, csrfToken, scripts, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Gateway console`}</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script type="module" src="/console/assets/console.js" />
        {(scripts ?? []).map((name) => <script defer src={`/console/assets/${name}`} />)}
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        {system === 'test' ? <div class="test-mark" role="note">Test system: no real money moves</div> : null}
        <header class="top">
          <a class="brand" href="/console">Gateway console</a>
          {user ? <Navigation user={user} path={path} csrfToken={csrfToken} /> : null}
        </header>
        <main id="main" tabIndex={-1}>
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}

function Navigation({ user, path, csrfToken }: { user: ConsoleUser; path: string; csrfToken: string | undefined }) {
  return (
    <nav aria-label="Console">
      <ul>
        {navigationFor(user.role).map((item) => (
          <li key={item.href}>
            <a href={item.href} aria-current={path.startsWith(item.href) ? 'page' : undefined}>{item.label}</a>
          </li>
        ))}
      </ul>
      <div class="who">
        <a href="/console/account">{user.email}</a> <span class="role">{ROLE_TITLES[user.role]}</span>
        <form method="post" action="/console/sign-out">
          <input type="hidden" name="_csrf" value={csrfToken ?? ''} />
          <button type="submit">Sign out</button>
        </form>
      </div>
    </nav>
  );
}
