/**
 * What becomes of each item of a group write whose commit was never acknowledged
 * (CommitUncertainError), once the leader that now holds the truth was asked whether the item's
 * rows are there. After a failover that leader is the new one: a commit the old leader made
 * only locally (it was cut while waiting for its synchronous replica) is discarded when the old
 * leader rejoins, so what the new leader lacks never happened.
 */
export type UncertainItemFate =
  /** Its rows are there: it committed, and is answered as any committed write. */
  | 'committed'
  /** Its rows are not there: it did not commit where it counts, so writing it again cannot make two. */
  | 'write-again'
  /** It committed, and its answer was what the lost statement read (a risk check's counts): read again. */
  | 'read-answer';

/**
 * The fate of one item from what the leader holds. `answerFromWrite`: the item's answer is
 * something its own statement read, which a later read cannot give back exactly.
 */
export function fateOfUncertainItem(found: boolean, answerFromWrite: boolean): UncertainItemFate {
  if (!found) return 'write-again';
  return answerFromWrite ? 'read-answer' : 'committed';
}

/** The fates of a group's items, in order; an item the read did not answer about counts as not found. */
export function fatesOfUncertainGroup(found: readonly boolean[], answerFromWrite: readonly boolean[]): UncertainItemFate[] {
  return answerFromWrite.map((fromWrite, index) => fateOfUncertainItem(found[index] === true, fromWrite));
}
