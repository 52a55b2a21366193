import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderGeneratedFiles } from '../src/catalogue/render/generated-files.js';
import { spliceEmv3dsTables } from '../src/connectors/emv3ds/docs.js';
import { spliceSimulatorTables } from '../src/connectors/simulator/index.js';
import { spliceRolesTable } from '../src/domain/access/permissions-docs.js';
import { splicePlacementTable } from '../src/storage/distribution-docs.js';

/**
 * `npm run docs`: writes the parameter, OpenAPI and result-code references and the request types,
 * and refreshes the generated tables inside docs/simulator.md the roles table of docs/console.md and the EMV 3-D Secure tables of docs/three-d-secure.md. Tests fail when any is stale.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function write(path: string, content: string): void {
  const target = join(root, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  console.log(`wrote ${path}`);
}

for (const [path, content] of renderGeneratedFiles()) write(path, content);
write('docs/simulator.md', spliceSimulatorTables(readFileSync(join(root, 'docs/simulator.md'), 'utf8')));
write('docs/console.md', spliceRolesTable(readFileSync(join(root, 'docs/console.md'), 'utf8')));
write('docs/three-d-secure.md', spliceEmv3dsTables(readFileSync(join(root, 'docs/three-d-secure.md'), 'utf8')));
write('docs/scale-out.md', splicePlacementTable(readFileSync(join(root, 'docs/scale-out.md'), 'utf8')));
