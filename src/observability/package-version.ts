import { readFileSync } from 'node:fs';

/** The gateway's package version, as the system status and the heartbeat rows show it. */
export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
