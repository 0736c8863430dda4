// Builds resources/infra/resource-infra.json.gz: a full ingest of every declared resource_infra source
// from ../shared/data/infra into a fresh in-memory store, written as the layer file a fresh install
// loads (docs/decisions/090). Run after `npm run build`. Usage: npm run build:infra
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createCore } from '../dist/src/app/create.js';
import { loadConfig } from '../dist/src/platform/config.js';
import { encodeInfraLayer, SHIPPED_INFRA_LAYER } from '../dist/src/features/resource-infra/layer-file.js';

const core = await createCore(loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'warn', PORT: '0' }), { infraLayerFile: null });
try {
  const infra = core.services.resourceInfra;
  await core.services.ports.refresh();
  await core.services.overrides.refresh();
  const { reports, missing } = await infra.ingest({});
  if (missing.length) throw new Error(`source files missing, the layer would be partial: ${missing.join(', ')}`);
  const file = await infra.layerFile();
  const bytes = encodeInfraLayer(file);
  const out = SHIPPED_INFRA_LAYER();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  for (const r of reports) console.log(`${r.source}: ${r.rows_read} rows, ${r.objects_after} objects in the layer after it, ${r.failed} failed rows`);
  const objects = file.sources.reduce((a, s) => a + s.objects.length, 0);
  const findings = file.sources.reduce((a, s) => a + s.findings.length, 0);
  console.log(`${objects} objects, ${findings} findings from ${file.sources.length} sources; wrote ${out} (${(bytes.length / 1024).toFixed(0)} KiB)`);
} finally {
  await core.close();
}
