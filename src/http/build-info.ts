import { execFileSync } from 'node:child_process';

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { env: { ...process.env, TZ: 'UTC' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2_000 }).trim();
  } catch {
    return undefined;
  }
}

/**
 * `<commit>@<commit time>`: constant for one build. A deployment without git sets BUILD_NUMBER.
 * Read once at start-up, never on the request path.
 */
export function readBuildNumber(env: Readonly<Record<string, string | undefined>>): string {
  if (env['BUILD_NUMBER']) return env['BUILD_NUMBER'];
  const commit = git(['rev-parse', 'HEAD']);
  const time = git(['log', '-1', '--format=%cd', '--date=format-local:%Y-%m-%d %H:%M:%S +0000']);
  return `${commit ?? '0'.repeat(40)}@${time ?? 'unknown'}`;
}
