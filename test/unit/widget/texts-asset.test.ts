import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { widgetTextsBody, type WidgetTextsAsset } from '../../../src/http/widget/texts-asset.js';
import { textsVersion } from '../../../src/http/widget/widget-build.js';

const ASSET: WidgetTextsAsset = { texts: { en: { submit: 'Pay now' }, de: { submit: 'Jetzt bezahlen' } }, version: 'v1' };

describe('the gateway side of the widget texts: one language a body', () => {
  const cases: [locale: string, body: string | undefined][] = [
    ['de', '{"locale":"de","labels":{"submit":"Jetzt bezahlen"}}'],
    ['en', '{"locale":"en","labels":{"submit":"Pay now"}}'],
    ['fr', undefined],
    ['DE', undefined],
    ['de-AT', undefined],
    ['', undefined],
    ['__proto__', undefined],
    ['constructor', undefined],
    ['hasOwnProperty', undefined],
  ];
  for (const [locale, body] of cases) it(`'${locale}': ${body ?? 'none (a 400)'}`, () => assert.equal(widgetTextsBody(ASSET, locale), body));

  it('versions the texts by their content: the same texts the same version, any change another', () => {
    assert.equal(textsVersion(ASSET.texts), textsVersion(JSON.parse(JSON.stringify(ASSET.texts))));
    assert.notEqual(textsVersion(ASSET.texts), textsVersion({ ...ASSET.texts, de: { submit: 'Bezahlen' } }));
    assert.match(textsVersion(ASSET.texts), /^[0-9a-f]{20}$/);
  });
});
