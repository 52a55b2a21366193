import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admit, answersCollectFrom, newBinding, takesBrandFrom, takesValue, type Member } from '../../../widget/src/frame-binding.js';

const CHECKOUT = 'A'.repeat(32);
const poster: Member = { id: 'poster-1', field: 'number', poster: true, checkoutId: CHECKOUT, purpose: 'payment' };
const cvv: Member = { id: 'cvv-1', field: 'cvv', poster: false, checkoutId: CHECKOUT, purpose: 'payment' };

describe('widget: which frames of a session a secure field frame deals with', () => {
  const cases: [what: string, announced: Member[], from: string, answers: boolean][] = [
    ['the form’s poster', [poster], 'poster-1', true],
    ['nobody announced', [], 'poster-1', false],
    ['a poster of another checkout', [{ ...poster, id: 'forged', checkoutId: 'B'.repeat(32) }], 'forged', false],
    ['a poster of the same checkout for a registration', [{ ...poster, id: 'forged', purpose: 'registration' }], 'forged', false],
    ['a second poster after the first', [poster, { ...poster, id: 'forged' }], 'forged', false],
    ['the first poster, after a second one came', [poster, { ...poster, id: 'forged' }], 'poster-1', true],
    ['a poster announced after a forged one of another checkout', [{ ...poster, id: 'forged', checkoutId: 'B'.repeat(32) }, poster], 'poster-1', true],
    ['a frame that is no poster', [{ ...cvv, id: 'other', field: 'number' }], 'other', false],
  ];
  for (const [what, announced, from, answers] of cases) {
    it(`the CVV frame ${answers ? 'answers' : 'does not answer'} a collect from ${what}`, () => {
      const binding = newBinding(cvv);
      for (const member of announced) admit(binding, member);
      assert.equal(answersCollectFrom(binding, from), answers);
    });
  }

  it('a poster never answers a collect, even from its own form', () => {
    const binding = newBinding(poster);
    admit(binding, { ...poster, id: 'poster-2' });
    assert.equal(answersCollectFrom(binding, 'poster-2'), false);
  });

  const values: [what: string, message: { from: string; to: string; field: 'number' | 'cvv' }, takes: boolean][] = [
    ['the bound CVV frame, addressed to it', { from: 'cvv-1', to: 'poster-1', field: 'cvv' }, true],
    ['the bound CVV frame, addressed to another poster', { from: 'cvv-1', to: 'forged', field: 'cvv' }, false],
    ['a second CVV frame', { from: 'cvv-2', to: 'poster-1', field: 'cvv' }, false],
    ['the CVV frame claiming the poster’s own field', { from: 'cvv-1', to: 'poster-1', field: 'number' }, false],
  ];
  for (const [what, message, takes] of values) {
    it(`the poster ${takes ? 'takes' : 'refuses'} a value from ${what}`, () => {
      const binding = newBinding(poster);
      admit(binding, cvv);
      admit(binding, { ...cvv, id: 'cvv-2' });
      assert.equal(takesValue(binding, message), takes);
    });
  }

  it('the CVV frame follows the brand of its own form’s number frame only', () => {
    const binding = newBinding(cvv);
    admit(binding, { ...poster, id: 'forged', checkoutId: 'B'.repeat(32) });
    admit(binding, poster);
    assert.equal(takesBrandFrom(binding, 'poster-1'), true);
    assert.equal(takesBrandFrom(binding, 'forged'), false);
  });
});
