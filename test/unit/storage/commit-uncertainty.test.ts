import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommitUncertainError, isConnectionLost, isDatabaseUnavailable, isNotLeader, mayHaveCommitted, NotSentError, statementMayWrite } from '../../../src/storage/errors.js';

const withCode = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('which failed statements may have committed', () => {
  it('a write whose connection was lost or whose answer timed out after it was sent: unknown', () => {
    for (const error of [withCode('Connection terminated unexpectedly'), withCode('read ECONNRESET', 'ECONNRESET'), withCode('Query read timeout'), withCode('terminating connection due to administrator command', '57P01'), withCode('server closed the connection', '08006')]) {
      assert.equal(mayHaveCommitted(error, true), true, error.message);
    }
  });

  it('a read, a write the server answered with an error, or a write never sent: certainly not committed', () => {
    assert.equal(mayHaveCommitted(withCode('Connection terminated unexpectedly'), false), false, 'a read commits nothing');
    assert.equal(mayHaveCommitted(withCode('canceling statement due to statement timeout', '57014'), true), false, 'the server cancelled it');
    assert.equal(mayHaveCommitted(withCode('cannot execute INSERT in a read-only transaction', '25006'), true), false, 'a replica refused it');
    assert.equal(mayHaveCommitted(withCode('duplicate key value', '23505'), true), false);
    assert.equal(mayHaveCommitted(withCode('Client has encountered a connection error and is not queryable'), true), false, 'pg never sent it');
    assert.equal(mayHaveCommitted(new NotSentError(new Error('x')), true), false);
    assert.equal(mayHaveCommitted(Object.assign(withCode('write ECONNRESET', 'ECONNRESET'), { syscall: 'write' }), true), false, 'the socket refused the write');
    assert.equal(mayHaveCommitted(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), true), true, 'on a query, a refusal can only follow a dropped connection');
  });

  it('an uncertain commit is still an outage to the job worker, and a replica refusing a write is "not the leader"', () => {
    assert.equal(isDatabaseUnavailable(new CommitUncertainError(new Error('Connection terminated'))), true);
    const readOnly = withCode('cannot execute UPDATE in a read-only transaction', '25006');
    assert.equal(isNotLeader(readOnly), true);
    assert.equal(isDatabaseUnavailable(readOnly), true, 'answered 503 999.999.888 when no leader is found in time');
    assert.equal(isConnectionLost(readOnly), false, 'the caller throws the connection away because it is not the leader, not because it broke');
  });

  it('connections are thrown away after a lost link or a client-side timeout, kept after an answered error', () => {
    assert.equal(isConnectionLost(withCode('Connection terminated unexpectedly')), true);
    assert.equal(isConnectionLost(withCode('Query read timeout')), true);
    assert.equal(isConnectionLost(withCode('terminating connection due to administrator command', '57P01')), true);
    assert.equal(isConnectionLost(withCode('canceling statement due to statement timeout', '57014')), false);
    assert.equal(isConnectionLost(withCode('duplicate key value', '23505')), false);
  });
});

describe('which statements may write when run on their own', () => {
  it('plain reads do not; everything else, and reads naming a writing word, may', () => {
    assert.equal(statementMayWrite('SELECT id, updated_at FROM transactions WHERE id = $1'), false);
    assert.equal(statementMayWrite('  select 1'), false);
    assert.equal(statementMayWrite('SHOW server_version'), false);
    assert.equal(statementMayWrite('INSERT INTO transactions (id) VALUES ($1)'), true);
    assert.equal(statementMayWrite('WITH moved AS (UPDATE jobs SET state = $1 RETURNING id) SELECT id FROM moved'), true);
    assert.equal(statementMayWrite('SELECT id FROM jobs FOR UPDATE SKIP LOCKED'), true);
    assert.equal(statementMayWrite("SELECT nextval('seq')"), true);
    assert.equal(statementMayWrite('COMMIT'), true);
  });
});
