import { legacyCredentialOf } from '../../domain/access-token-form.js';

/** The demo merchant a first start made, as it shows it. */
export interface DemoMerchantCredentials {
  readonly entityId: string;
  readonly accessToken: string;
}

/**
 * A readable block for the terminal, never for a log line: the entity id, the Bearer token and the
 * same credential as OPPWA's authentication.userId / authentication.password pair, then the
 * variables README.md's first payment ("Start it") reads. No card number: stdout may end up in a log.
 */
export function demoMerchantBanner(demo: DemoMerchantCredentials, baseUrl: string): string {
  const legacy = legacyCredentialOf(demo.accessToken);
  const rows: [string, string][] = [
    ['entityId', demo.entityId],
    ['accessToken', demo.accessToken],
    ...(legacy ? ([['authentication.userId', legacy.userId], ['authentication.password', legacy.password]] as [string, string][]) : []),
  ];
  // Tests and scripts read `entityId: …` and `accessToken: …` off this block (one space): keep them.
  return [
    '',
    'Demo merchant created (shown once; more with: npm run gateway -- entity create --name "Shop")',
    '',
    ...rows.map(([name, value]) => `  ${name}: ${value}`),
    '',
    '  Send the token as "Authorization: Bearer <accessToken>"' + (legacy ? ', or, from an OPPWA client that sends' : '.'),
    ...(legacy ? ['  authentication.* fields, the userId and password: they are the same credential.'] : []),
    '',
    `Gateway: ${baseUrl}. For the first payment in README.md ("Start it"), paste into another terminal:`,
    '',
    `    export ENTITY=${demo.entityId} TOKEN=${demo.accessToken}`,
    '',
    '',
  ].join('\n');
}
