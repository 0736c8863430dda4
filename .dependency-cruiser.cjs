// Import boundaries of issue 9, checked by `npm run lint` (depcruise src).
// Known violations live in .dependency-cruiser-known-violations.json until the hub branch removes them.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-app-layer',
      comment: 'Domain and infrastructure modules never depend on the app, the HTTP layer or features.',
      severity: 'error',
      from: { path: '^src/(ais|fleet|geo|store|bus|limits|jobs|sim|feeds|events|routing)/' },
      to: { path: '^src/(app|http|features|cli)/' },
    },
    {
      name: 'platform-imports-only-the-platform',
      comment: 'src/platform/ is the floor (decision 130): it imports nothing of Bosun but itself and the logger type.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: '^src/(platform|observability)/' },
    },
    {
      name: 'cli-kit-never-imports-the-app',
      comment: 'Lower layers import the CLI kit for their commands; the kit imports only the platform (src/cli/main.ts hands it the store opener).',
      severity: 'error',
      from: { path: '^src/cli-kit/' },
      to: { path: '^src/', pathNot: '^src/(cli-kit|platform|observability)/' },
    },
    {
      name: 'feature-kit-imports-no-feature',
      comment: 'The feature kit stands below every feature: it imports no feature folder.',
      severity: 'error',
      from: { path: '^src/features/kit/' },
      to: { path: '^src/features/', pathNot: '^src/features/kit/' },
    },
    {
      name: 'http-imports-features',
      comment: 'The HTTP layer is generic; features plug into it, never the other way round.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'foreign-feature-repo',
      comment:
        'Only a feature reaches its own repository; others go through its service. A feature is a folder under ' +
        'src/features/, or under src/features/{harbor,exchange,routes}/ for the sub-features of an area. The composition root (src/app/) builds repositories.',
      severity: 'error',
      from: { path: '^src/(?!app/)', pathNot: '^src/features/((?:harbor|exchange|routes)/[^/]+|[^/]+)/' },
      to: { path: '^src/features/.+-repo\\.ts$' },
    },
    {
      name: 'foreign-feature-repo-between-features',
      comment: 'See foreign-feature-repo; this half covers files inside a feature folder.',
      severity: 'error',
      from: { path: '^src/features/((?:harbor|exchange|routes)/[^/]+|[^/]+)/' },
      to: { path: '^src/features/.+-repo\\.ts$', pathNot: '^src/features/$1/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included (tsPreCompilationDeps), so the type-level hub cycle counts.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
