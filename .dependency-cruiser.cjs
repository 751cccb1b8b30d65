/**
 * The layers of docs/architecture.md, checked in `npm test` (scripts/test.ts): no import cycle
 * between files or folders, and no import that runs upward.
 *
 * Server: platform ← features (in `featureOrder`, each only importing those before it) ←
 * surfaces ← app.ts / main.ts; from outside a feature, only its index.ts is imported.
 * Portal and console: lib ← ui ← features ← app.
 */

/** The server's features, lowest first: a feature imports only platform/ and features listed before it. */
const featureOrder = [
  'tenants',
  'analytics',
  'sessions',
  'accounts',
  'factors',
  'sign-in',
  'login',
  'passkeys',
  'mobile',
  'mfa',
  'partners',
  'oidc',
  'self-service',
  'idempotency',
  'messenger',
  'assets',
  'configuration',
  'operators',
  'admin',
  'maintenance',
];

const server = '^apps/server/src/';
const featureRules = featureOrder.flatMap((feature, index) => {
  const higher = featureOrder.slice(index + 1);
  return higher.length === 0
    ? []
    : [
        {
          name: `server-feature-order-${feature}`,
          comment: `features/${feature} may import only the features before it in featureOrder`,
          severity: 'error',
          from: { path: `${server}features/${feature}/` },
          to: { path: `${server}features/(${higher.join('|')})/` },
        },
      ];
});

const unknownFeature = {
  name: 'server-feature-listed',
  comment: 'every folder under features/ has a place in featureOrder',
  severity: 'error',
  from: { path: `${server}features/(?!(${featureOrder.join('|')})/)` },
  to: {},
};

/** lib ← ui ← features ← app in a front-end app. */
function frontEndRules(app) {
  const root = `^apps/${app}/src/`;
  return [
    {
      name: `${app}-lib-is-lowest`,
      severity: 'error',
      from: { path: `${root}lib/` },
      to: { path: `${root}(ui|features|app)/` },
    },
    {
      name: `${app}-ui-below-features`,
      severity: 'error',
      from: { path: `${root}ui/` },
      to: { path: `${root}(features|app)/` },
    },
    {
      name: `${app}-features-below-app`,
      severity: 'error',
      from: { path: `${root}features/` },
      to: { path: `${root}(app/|main\\.tsx)` },
    },
  ];
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycle between files',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment: 'no two folders importing each other, directly or through others',
      scope: 'folder',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'server-platform-is-lowest',
      severity: 'error',
      from: { path: `${server}platform/` },
      to: { path: `${server}(features/|surfaces/|app\\.ts|main\\.ts)` },
    },
    {
      name: 'server-features-below-surfaces',
      severity: 'error',
      from: { path: `${server}features/` },
      to: { path: `${server}(surfaces/|app\\.ts|main\\.ts)` },
    },
    {
      name: 'server-surfaces-below-app',
      severity: 'error',
      from: { path: `${server}surfaces/` },
      to: { path: `${server}(app\\.ts|main\\.ts)` },
    },
    {
      name: 'packages-import-no-app',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    ...featureRules,
    unknownFeature,
    {
      name: 'server-feature-public-api',
      comment: 'outside a feature, reach it through its index.ts (its public face)',
      severity: 'error',
      from: { path: `${server}(features/([^/]+)/|surfaces/|app\\.ts|main\\.ts)` },
      to: {
        path: `${server}features/`,
        pathNot: [`${server}features/$2/`, `${server}features/[^/]+/index\\.ts$`],
      },
    },
    ...frontEndRules('portal'),
    ...frontEndRules('console'),
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Tests and test support may reach across layers to set a scene; the built apps are output.
    exclude: { path: '(node_modules|\\.test\\.tsx?$|test-support|/test/|/dist/)' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
