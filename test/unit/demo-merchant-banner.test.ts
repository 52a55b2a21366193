import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accessTokenOf } from '../../src/domain/access-token-form.js';
import { demoMerchantBanner } from '../../src/operations/admin/demo-merchant-banner.js';

describe("the demo merchant's start banner", () => {
  const entityId = '82837f17f5f1348a085763a391612f92';
  const accessToken = accessTokenOf('6691a7f814d7e963c932bf1b13483350', 'BWjzA32RvFerlUl7LSUEHJiVYvadDdMY');
  const banner = demoMerchantBanner({ entityId, accessToken }, 'http://127.0.0.1:8080');

  it('shows the entity, the Bearer token and the same credential as the authentication.* pair, one a line', () => {
    assert.match(banner, new RegExp(`^  entityId: +${entityId}$`, 'm'));
    assert.match(banner, /^ {2}accessToken: +(\S+)$/m);
    assert.equal(/accessToken:\s+(\S+)/.exec(banner)?.[1], accessToken, 'what tests and scripts read off it');
    assert.match(banner, /^ {2}authentication\.userId: +6691a7f814d7e963c932bf1b13483350$/m);
    assert.match(banner, /^ {2}authentication\.password: +BWjzA32RvFerlUl7LSUEHJiVYvadDdMY$/m);
  });

  it("ends with the line README.md's first payment reads, and no card number", () => {
    assert.match(banner, new RegExp(`^ +export ENTITY=${entityId} TOKEN=${accessToken.replace(/[+/=]/g, '\\$&')}$`, 'm'));
    assert.doesNotMatch(banner, /4200000000000000|card\.number/);
    assert.ok(!banner.includes('{"'), 'a block to read, not a JSON log line');
  });

  it('a token of the older random form has no pair to show', () => {
    const older = demoMerchantBanner({ entityId, accessToken: 'kq3N0u1bX8m2pY7zV4cT9rW6sH5jL0aE2dF8gB1nQ4w' }, 'http://127.0.0.1:8080');
    assert.doesNotMatch(older, /authentication\.userId:/);
    assert.match(older, /export ENTITY=/);
  });
});
