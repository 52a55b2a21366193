import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeDownload, WIDGET_DOWNLOAD_TARGET_BYTES, widgetDownload } from '../../../bench/widget.js';

describe("bench/widget.ts: the size row, what a shopper downloads in all", () => {
  it('adds the script, the frame and the language (none for English), under the 40 KB target', () => {
    const german = widgetDownload('de');
    assert.equal(german.totalBytes, german.scriptBytes + german.frameBytes + german.textsBytes);
    assert.ok(german.textsBytes > 0 && german.textsBytes <= german.largestTexts.bytes);
    assert.ok(german.totalBytes - german.textsBytes + german.largestTexts.bytes < WIDGET_DOWNLOAD_TARGET_BYTES, 'the largest language too');
    const english = widgetDownload('en');
    assert.equal(english.textsBytes, 0);
    assert.equal(english.totalBytes, german.totalBytes - german.textsBytes);
    assert.match(describeDownload(german), /in de, gzipped: \d+ bytes in all \(target < 40960: met\)/);
  });

  it('refuses a language the widget does not fetch', () => assert.throws(() => widgetDownload('xx'), /BENCH_WIDGET_LOCALE: xx is none of en, de/));
});
