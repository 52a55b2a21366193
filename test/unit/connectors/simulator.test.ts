import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { callConnector, INITIAL_OPERATIONS, REFERENCING_OPERATIONS, type Connector, type ConnectorOutcome } from '../../../src/connectors/connector.js';
import { paymentInput, referencingInput } from '../../../src/connectors/simulator/input.js';
import { SIMULATOR_ROWS, matchSimulatorRow } from '../../../src/connectors/simulator/rules.js';
import { SUCCESS, type SimulatorExample, type SimulatorRow } from '../../../src/connectors/simulator/row.js';
import { AVS_ROWS, CVV_ROWS, INTERNAL_SIMULATOR, SIMULATOR_FLAVOURS, letterFor } from '../../../src/connectors/simulator/tables.js';
import { GENERATED_BEGIN, GENERATED_END, httpStatusOf, renderSimulatorTables, visibleCode } from '../../../src/connectors/simulator/docs.js';
import { resultCode } from '../../../src/results/catalogue.js';
import {
  NOW,
  fixedClock,
  isInitial,
  paymentRequestFor,
  referencingRequestFor,
  secretsOf,
  simulator,
  stringify,
  type RequestMode,
  externalTestPlatform,
} from './simulator-fixtures.js';

/** Sends one example through the connector the way the gateway does: call, then normalize. */
async function send(connector: Connector, example: SimulatorExample, mode?: RequestMode) {
  const { operation } = example;
  if (isInitial(operation)) {
    const request = paymentRequestFor(example, mode);
    return callConnector(() => connector[INITIAL_OPERATIONS[operation]](request));
  }
  const ownPrefix = SIMULATOR_FLAVOURS.find((flavour) => flavour.connectorId === connector.id)!.referencePrefix;
  const request = referencingRequestFor(operation, example, ownPrefix, mode);
  return callConnector(() => connector[REFERENCING_OPERATIONS[operation]](request));
}

async function decidingRow(example: SimulatorExample): Promise<SimulatorRow | undefined> {
  const { operation } = example;
  const input = isInitial(operation)
    ? await paymentInput(operation, paymentRequestFor(example), NOW, undefined)
    : referencingInput(operation, referencingRequestFor(operation, example, INTERNAL_SIMULATOR.referencePrefix), NOW, INTERNAL_SIMULATOR.referencePrefix);
  return matchSimulatorRow(input);
}

function cvvOf(example: SimulatorExample): string | null {
  const method = example.method;
  if (!method) return '123';
  return method.kind === 'card' || method.kind === 'walletDecrypted' ? (method.card.cvv ?? null) : null;
}

function expectedLetters(row: SimulatorRow, example: SimulatorExample) {
  const tables = row.lettersFromTables;
  return {
    avs: row.outcome.avsResponse ?? (tables ? letterFor(AVS_ROWS, example.postcode ?? null) : null) ?? undefined,
    cvv: row.outcome.cvvResponse ?? (tables ? letterFor(CVV_ROWS, cvvOf(example)) : null) ?? undefined,
  };
}

function leaves(value: unknown): unknown[] {
  return value !== null && typeof value === 'object' ? Object.values(value).flatMap(leaves) : [value];
}

describe('simulator table: every example of every row', () => {
  for (const row of SIMULATOR_ROWS) {
    row.examples.forEach((example, index) => {
      it(`${row.id} #${index + 1} (${example.operation})`, async () => {
        assert.equal((await decidingRow(example))?.id, row.id, 'decided by another row');
        const outcome = await send(simulator(), example);
        const expectedCode = row.outcome.code === SUCCESS ? INTERNAL_SIMULATOR.successCode : visibleCode(row);
        assert.equal(outcome.code, expectedCode);
        assert.equal(outcome.kind, row.outcome.kind === 'unknown' ? 'pending' : row.outcome.kind);
        assert.equal(resultCode(outcome.code).httpStatus, httpStatusOf(row));
        const letters = expectedLetters(row, example);
        assert.equal(outcome.avsResponse, letters.avs);
        assert.equal(outcome.cvvResponse, letters.cvv);
        assert.equal(outcome.resultDetails.AcquirerResponse, row.outcome.acquirerResponse);
        assert.equal(outcome.resultDetails.ExtendedDescription, row.outcome.extendedDescription);
        const [pan, cvv] = secretsOf(example);
        if (pan) assert.ok(!stringify(outcome).includes(pan), 'card number leaked');
        if (cvv) assert.ok(!leaves(outcome).includes(cvv), 'CVV leaked');
      });
    });
  }
});

describe('simulator table: data', () => {
  it('every row has at least one example and a unique id', () => {
    assert.equal(new Set(SIMULATOR_ROWS.map((row) => row.id)).size, SIMULATOR_ROWS.length);
    for (const row of SIMULATOR_ROWS) assert.ok(row.examples.length > 0, row.id);
  });

  it('uses catalogue codes only, declines are HTTP 400 and successes or pendings 200', () => {
    for (const row of SIMULATOR_ROWS) {
      if (row.outcome.code !== SUCCESS) resultCode(row.outcome.code);
      const expectedStatus = row.outcome.kind === 'declined' ? 400 : 200;
      assert.equal(httpStatusOf(row), expectedStatus, row.id);
    }
    for (const flavour of SIMULATOR_FLAVOURS) assert.equal(resultCode(flavour.successCode).httpStatus, 200);
  });

  it('docs/simulator.md holds exactly the generated tables', () => {
    const markdown = readFileSync(new URL('../../../docs/simulator.md', import.meta.url), 'utf8');
    const start = markdown.indexOf(GENERATED_BEGIN);
    const end = markdown.indexOf(GENERATED_END);
    assert.ok(start >= 0 && end > start, 'generated block missing');
    assert.equal(markdown.slice(start, end + GENERATED_END.length), renderSimulatorTables(), 'regenerate docs/simulator.md');
    const listedIds = [...markdown.matchAll(/^\| \d+ \| `([a-z0-9-]+)` \|/gm)].map((match) => match[1]);
    assert.deepEqual(listedIds, SIMULATOR_ROWS.map((row) => row.id));
  });
});

describe('simulator success codes by connector (the simulators serve the test system only)', () => {
  const successRows = SIMULATOR_ROWS.filter((row) => row.outcome.code === SUCCESS);
  const cases = [
    { name: 'simulator, test system', connector: simulator, mode: { system: 'test', testMode: 'INTERNAL' }, code: '000.100.110' },
    { name: 'external test platform, test system', connector: externalTestPlatform, mode: { system: 'test', testMode: 'EXTERNAL' }, code: '000.100.112' },
    { name: 'a request marked live makes no difference: the live system never routes to a simulator (router tests)', connector: simulator, mode: { system: 'live', testMode: null }, code: '000.100.110' },
  ] as const;
  for (const testCase of cases) {
    it(testCase.name, async () => {
      for (const row of successRows) {
        const outcome = await send(testCase.connector(), row.examples[0]!, testCase.mode);
        assert.equal(outcome.code, testCase.code, row.id);
      }
    });
  }
});

describe('AVS and CVV letter tables', () => {
  for (const row of AVS_ROWS) {
    it(`billing.postcode ${row.value ?? '(absent)'} → ${row.letter ?? 'none'}`, async () => {
      const postcode = row.value === '*' ? '10115' : row.value;
      const outcome = await send(simulator(), { operation: 'PA', ...(postcode ? { postcode } : {}) });
      assert.equal(outcome.avsResponse, row.letter ?? undefined);
    });
  }
  for (const row of CVV_ROWS) {
    it(`card.cvv ${row.value ?? '(absent)'} → ${row.letter ?? 'none'}`, async () => {
      const cvv = row.value === '*' ? '456' : row.value;
      const card = { number: '5454545454545454', expiryMonth: '05', expiryYear: '2034', ...(cvv ? { cvv } : {}) };
      const outcome = await send(simulator(), { operation: 'DB', method: { kind: 'card', card } });
      assert.equal(outcome.cvvResponse, row.letter ?? undefined);
    });
  }
});

describe('simulator answers', () => {
  it('are deterministic: same ids and clock, same outcome', async () => {
    for (const example of SIMULATOR_ROWS.flatMap((row) => row.examples)) {
      assert.deepEqual(await send(simulator(), example), await send(simulator(), example));
    }
  });

  it('carry realistic resultDetails and a scheme id on successful card payments', async () => {
    const outcome: ConnectorOutcome = await send(simulator(), { operation: 'PA' });
    assert.equal(outcome.resultDetails.ConnectorTxID1, `SIM-${'0'.repeat(31)}1`);
    assert.match(outcome.resultDetails.ConnectorTxID2 ?? '', /^[0-9]{6}$/);
    assert.match(outcome.resultDetails.ConnectorTxID3 ?? '', /^6326[0-9]{8}$/);
    assert.equal(outcome.resultDetails.clearingInstituteName, 'Simulator Acquiring Bank');
    assert.match(outcome.schemeTransactionId ?? '', /^SIM[0-9]{15}$/);
    assert.deepEqual(outcome.card?.type, 'CREDIT');
  });

  it('give no scheme id to declines, bank accounts, or referencing operations', async () => {
    const examples: SimulatorExample[] = [
      { operation: 'PA', amountMinor: 505n },
      { operation: 'DB', method: { kind: 'bankAccount', bankAccount: { holder: 'Jane Jones', iban: 'DE23100000001234567890' } } },
      { operation: 'CP' },
    ];
    for (const example of examples) assert.equal((await send(simulator(), example)).schemeTransactionId, undefined);
  });

  it('accept a MIT naming a scheme id the store knows, and decline one it does not', async () => {
    const first = await send(simulator(), { operation: 'DB' });
    const issued = new Set([first.schemeTransactionId!]);
    const store = { wasIssued: async (id: string) => issued.has(id) };
    const mit = (initialTransactionId: string): SimulatorExample => ({
      operation: 'DB',
      standingInstruction: { type: 'UNSCHEDULED', mode: 'REPEATED', source: 'MIT', initialTransactionId },
    });
    assert.equal((await send(simulator(store), mit(first.schemeTransactionId!))).kind, 'success');
    assert.equal((await send(simulator(store), mit('SIM000000000000001'))).code, '800.100.167');
  });

  it('treat a parent of the other simulator as foreign', async () => {
    const connector = externalTestPlatform();
    const outcome = await callConnector(() => connector.capture(referencingRequestFor('CP', { operation: 'CP' }, 'SIM')));
    assert.equal(outcome.code, '800.100.167');
  });

  it('never read the wall clock or Math.random', () => {
    const folder = new URL('../../../src/connectors/simulator/', import.meta.url);
    const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    assert.ok(files.includes('three-d-secure/directory.ts'), 'walks the subfolders too');
    for (const file of files) {
      const source = readFileSync(new URL(file, folder), 'utf8');
      assert.doesNotMatch(source, /Date\.now\(|new Date\(\)|Math\.random|randomBytes/, file);
    }
    assert.equal(fixedClock.now(), NOW);
  });
});

describe('simulator facts other components rely on (pinned, independent of the row data)', () => {
  const pinned: ReadonlyArray<readonly [string, SimulatorExample, string]> = [
    ['VISA test card succeeds', { operation: 'DB', method: { kind: 'card', card: { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034', cvv: '123' } } }, '000.100.110'],
    ['MASTER test card succeeds', { operation: 'PA', method: { kind: 'card', card: { number: '5454545454545454', expiryMonth: '05', expiryYear: '2034', cvv: '123' } } }, '000.100.110'],
    ['AMEX test card succeeds', { operation: 'DB', method: { kind: 'card', card: { number: '377777777777770', expiryMonth: '05', expiryYear: '2034', cvv: '1234' } } }, '000.100.110'],
    ['3DS challenge card succeeds without 3DS', { operation: 'DB', method: { kind: 'card', card: { number: '4200000000000042', expiryMonth: '05', expiryYear: '2034' } } }, '000.100.110'],
    ['test IBAN succeeds', { operation: 'DB', method: { kind: 'bankAccount', bankAccount: { holder: 'Jane Jones', iban: 'DE23100000001234567890', bic: 'MARKDEF1100' } } }, '000.100.110'],
    ['generic decline card', { operation: 'DB', method: { kind: 'card', card: { number: '4000000000000002', expiryMonth: '05', expiryYear: '2034' } } }, '800.100.100'],
    ['insufficient funds card', { operation: 'DB', method: { kind: 'card', card: { number: '4000000000009995', expiryMonth: '05', expiryYear: '2034' } } }, '800.100.203'],
    ['CVV 999 declines', { operation: 'DB', method: { kind: 'card', card: { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034', cvv: '999' } } }, '800.100.153'],
    ['amount 9.99 ends pending', { operation: 'DB', amountMinor: 999n }, '000.200.000'],
    ['capture succeeds', { operation: 'CP' }, '000.100.110'],
    ['capture of 5.05 declines', { operation: 'CP', amountMinor: 505n }, '800.100.152'],
  ];
  for (const [name, example, code] of pinned) {
    it(name, async () => assert.equal((await send(simulator(), example)).code, code));
  }
});
