import { hostname, userInfo } from 'node:os';
import type { Actor } from '../domain/access/actor.js';

/** Who acts at the command line, as the audit log names them: the OS user on this host. */
export function cliActor(): Extract<Actor, { kind: 'cli' }> {
  let osUser = 'unknown';
  try {
    osUser = userInfo().username;
  } catch {
    // a user without a passwd entry (containers): keep 'unknown'
  }
  return { kind: 'cli', osUser, host: hostname() };
}
