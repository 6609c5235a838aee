/**
 * The layer rules (docs/decisions.md, "Layers"), checked by `npm run lint` and so by `npm test`.
 *
 *   functions → http → domain → data / platform / adapters → table
 *
 * `schemas` and `openapi` sit beside `http`; `service` (the operation and queue lists) and the
 * pure modules at the `shared/` root sit below everything. `lib`, `local`, `simulator`, `bench`,
 * `scripts`, `bin` and `clients` are outside the service: they may read it, it never reads them.
 * A client's source (`clients/<language>/src`) reads nothing of the repository but itself: it
 * knows the API only through the document its types are generated from.
 */
const OUTSIDE = '^(lib|local|simulator|bench|scripts|bin|test|clients)/';
const TABLE_SDK = '^node_modules/@aws-sdk/(client-dynamodb|lib-dynamodb|util-dynamodb|client-dynamodb-streams)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle makes two modules one: neither can be read, tested or moved alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'service-not-outside',
      severity: 'error',
      comment: 'The service (shared/, functions/) never depends on the CDK app, the local stack, the simulator, benchmarks, scripts or tests.',
      from: { path: '^(shared|functions)/' },
      to: { path: OUTSIDE },
    },
    {
      name: 'shared-not-functions',
      severity: 'error',
      comment: 'Handlers are the top layer: nothing in shared/ imports one.',
      from: { path: '^shared/' },
      to: { path: '^functions/' },
    },
    {
      name: 'handler-not-handler',
      severity: 'error',
      comment: 'Each handler stands alone; what two handlers share belongs in shared/.',
      from: { path: '^functions/' },
      to: { path: '^functions/' },
    },
    {
      name: 'http-is-above-domain',
      severity: 'error',
      comment: 'Below the HTTP layer nothing knows of requests, responses or their schemas.',
      from: { path: '^shared/', pathNot: '^shared/(http|openapi|schemas)/' },
      to: { path: '^shared/(http|openapi)/' },
    },
    {
      name: 'schemas-only-for-http',
      severity: 'error',
      comment: 'Request and response schemas describe the transport: the domain and below do not read them.',
      from: { path: '^shared/(domain|data|platform|events|subscribers|media|service)/' },
      to: { path: '^shared/schemas/' },
    },
    {
      name: 'schemas-are-pure',
      severity: 'error',
      comment: 'Schemas load without handler, middleware, data or SDK code: the API document generator and each handler read them.',
      from: { path: '^shared/schemas/' },
      to: {
        path: '^(shared/(data|platform|subscribers|media|http/middleware)/|node_modules/(@aws-sdk|@middy|@aws-lambda-powertools)/)',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'domain-only-from-above',
      severity: 'error',
      comment: 'The domain is transport-neutral and is called by handlers and the HTTP layer, never the reverse.',
      from: { path: '^shared/(records|data|platform|events|subscribers|media|service)/|^shared/[^/]+\\.ts$' },
      to: { path: '^shared/domain/' },
    },
    {
      name: 'data-is-below-domain',
      severity: 'error',
      comment: 'Data modules know their records and the table, not the platform, events or other adapters.',
      from: { path: '^shared/data/' },
      to: { path: '^shared/(platform|events/(?!event\\.ts)|subscribers|media)/|^shared/(queue-client|scheduler)\\.ts$' },
    },
    {
      name: 'platform-is-an-adapter',
      severity: 'error',
      comment: "Meta's side knows the wire, not our records or the table.",
      from: { path: '^shared/platform/' },
      to: { path: '^shared/(data|events|subscribers)/' },
    },
    {
      name: 'table-only-in-data',
      severity: 'error',
      comment: 'No code outside shared/data builds a key or issues a table command (docs/data-model.md).',
      from: { path: '^(shared|functions)/', pathNot: '^shared/data/' },
      to: { path: `^shared/data/table/|${TABLE_SDK}` },
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment: 'A client is used outside this repository: its source imports only itself and its npm packages.',
      from: { path: '^clients/([^/]+)/src/' },
      to: { path: '^(?!clients/$1/src/|node_modules/)', dependencyTypesNot: ['core'] },
    },
    {
      name: 'lib-reads-only-declarations',
      severity: 'error',
      comment: 'The CDK app reads the lists and settings the service declares, never run-time code.',
      from: { path: '^(lib|bin)/' },
      to: { path: '^(shared/(domain|http|data/(?!table/(table|stream-filters)\\.ts)|platform/(?!graph-version\\.ts)|subscribers)|functions/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|\\.local)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
