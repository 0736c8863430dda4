// Proves the dependency-cruiser rules of .dependency-cruiser.cjs catch each kind of forbidden import:
// a tiny source tree with one violation per rule (and allowed neighbours) is cruised with the real rule set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const config = require(resolve('.dependency-cruiser.cjs')) as { forbidden: IFlattenedRuleSet['forbidden'] };

const fixture: Record<string, string> = {
  'src/http/errors.ts': 'export const code = 1;\n',
  'src/fleet/core.ts': "import { code } from '../http/errors';\nexport const x = code;\n",
  'src/http/route.ts': "import { service } from '../features/a/a-service';\nexport const r = service;\n",
  'src/features/a/a-repo.ts': 'export const repo = 1;\n',
  'src/features/a/a-service.ts': "import { repo } from './a-repo';\nexport const service = repo;\n",
  'src/features/b/b-service.ts': "import { repo } from '../a/a-repo';\nexport const b = repo;\n",
  'src/features/harbor/x/x-repo.ts': 'export const xRepo = 1;\n',
  'src/features/harbor/y/y-repo.ts': 'export const yRepo = 1;\n',
  'src/features/harbor/x/x-service.ts': "import { xRepo } from './x-repo';\nimport { yRepo } from '../y/y-repo';\nexport const s = xRepo + yRepo;\n",
  'src/cli/tool.ts': "import { repo } from '../features/a/a-repo';\nexport const t = repo;\n",
  'src/app/create.ts': "import { repo } from '../features/a/a-repo';\nimport { xRepo } from '../features/harbor/x/x-repo';\nexport const c = repo + xRepo;\n",
  'src/store/cycle-a.ts': "import type { B } from './cycle-b';\nexport type A = { b?: B };\n",
  'src/store/cycle-b.ts': "import type { A } from './cycle-a';\nexport type B = { a?: A };\n",
  'src/platform/clock.ts': "import { code } from '../http/errors';\nexport const now = code;\n",
  'src/cli-kit/kit.ts': "import { c } from '../app/create';\nexport const k = c;\n",
  'src/feeds/commands.ts': "import { k } from '../cli-kit/kit';\nimport { t } from '../cli/tool';\nexport const f = k + t;\n",
  'src/features/kit/route.ts': "import { service } from '../a/a-service';\nimport { now } from '../../platform/clock';\nexport const d = service + now;\n",
};

test('each import-boundary rule reports its violating import and nothing else', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-depcruise-'));
  try {
    for (const [path, text] of Object.entries(fixture)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const result = await cruise(['src'], { baseDir: dir, validate: true, ruleSet: { forbidden: config.forbidden }, tsPreCompilationDeps: true }, { extensions: ['.ts'] });
    const output = result.output as ICruiseResult;
    const found = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    assert.deepEqual(found, [
      'cli-kit-never-imports-the-app: src/cli-kit/kit.ts -> src/app/create.ts',
      'core-imports-app-layer: src/feeds/commands.ts -> src/cli/tool.ts',
      'core-imports-app-layer: src/fleet/core.ts -> src/http/errors.ts',
      'feature-kit-imports-no-feature: src/features/kit/route.ts -> src/features/a/a-service.ts',
      'foreign-feature-repo-between-features: src/features/b/b-service.ts -> src/features/a/a-repo.ts',
      'foreign-feature-repo-between-features: src/features/harbor/x/x-service.ts -> src/features/harbor/y/y-repo.ts',
      'foreign-feature-repo: src/cli/tool.ts -> src/features/a/a-repo.ts',
      'http-imports-features: src/http/route.ts -> src/features/a/a-service.ts',
      'no-circular: src/store/cycle-a.ts -> src/store/cycle-b.ts',
      'platform-imports-only-the-platform: src/platform/clock.ts -> src/http/errors.ts',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
