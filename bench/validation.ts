import { performance } from 'node:perf_hooks';
import { validateRequest } from '../src/catalogue/engine.js';
import { fullRequest } from '../test/unit/catalogue/fixtures.js';

/**
 * Micro-benchmark of the validation engine on a 300-parameter payment: 150 top-level parameters
 * of the full payment request (card, customer, billing, shipping, 3D Secure …) plus cart items
 * filling the rest. Prints microseconds per validation. `npx tsx bench/validation.ts`
 */

const PARAMETER_COUNT = 300;
const TOP_LEVEL_COUNT = 150;
const ITEM_FIELDS = ['name', 'merchantItemId', 'quantity', 'type', 'sku', 'currency', 'description', 'price', 'totalAmount', 'taxAmount', 'totalTaxAmount', 'tax'];
const ITEM_VALUES = ['Paperback novel', 'item-0017', '2', 'PHYSICAL', 'SKU-0017', 'EUR', 'A novel, paperback edition', '10.00', '20.00', '1.60', '3.20', '19'];

function benchmarkRequest(): Record<string, string> {
  const full = fullRequest('payment');
  const body: Record<string, string> = {};
  for (const name of Object.keys(full).filter((key) => !key.includes('['))) {
    if (Object.keys(body).length === TOP_LEVEL_COUNT) break;
    body[name] = full[name]!;
  }
  for (let item = 0; Object.keys(body).length < PARAMETER_COUNT; item += 1) {
    ITEM_FIELDS.forEach((field, index) => {
      if (Object.keys(body).length < PARAMETER_COUNT) body[`cart.items[${item}].${field}`] = ITEM_VALUES[index]!;
    });
  }
  return body;
}

function measure(body: Record<string, string>, iterations: number): number {
  const context = { now: new Date('2026-11-22T10:00:00Z') };
  const started = performance.now();
  for (let run = 0; run < iterations; run += 1) {
    if (!validateRequest('payment', body, context).ok) throw new Error('the benchmark request must be valid');
  }
  return ((performance.now() - started) * 1000) / iterations;
}

const body = benchmarkRequest();
measure(body, 2_000); // warm-up: let the JIT settle
const rounds = Array.from({ length: 5 }, () => measure(body, 5_000)).sort((left, right) => left - right);
console.log(`validateRequest('payment', ${Object.keys(body).length} parameters): median ${rounds[2]!.toFixed(1)} µs, best ${rounds[0]!.toFixed(1)} µs per validation`);
