/**
 * Jest runs the TypeScript sources in CommonJS through ts-jest (transpile only; `tsc --noEmit`
 * type-checks before jest in `npm test`). @middy/* and uuid ship ESM only, so they are
 * transformed too rather than running jest in experimental ESM mode.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/clients'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.[tj]s$': [
      'ts-jest',
      {
        tsconfig: {
          module: 'commonjs',
          moduleResolution: 'node10',
          target: 'ES2022',
          allowJs: true,
          esModuleInterop: true,
          isolatedModules: true,
          resolveJsonModule: true,
        },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|uuid)/)'],
  setupFiles: ['<rootDir>/test/support/environment.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testSequencer: '<rootDir>/test/support/sequencer.cjs',
  testTimeout: 30000,
  // Two workers on two cores: the suites wait on DynamoDB Local, pollers and timers more than they
  // compute (one worker kept 1.15 cores busy, 14.5 min), and each claims its own table and ports.
  // Three were faster (jest 590 s against 746 s for 76 suites) but loaded the runner enough to
  // time out the heaviest suites' waits in two runs of three.
  maxWorkers: 2,
  // A worker's event loop is empty as soon as its last suite ends (no handle is left open), but the
  // process then takes about 1 s per GB of heap to exit (V8 unmaps its pages one by one), and the
  // workers end a run with 0.4 GB and more: 0.5 to 1 s on this machine, past jest's default 500 ms,
  // so jest killed them and warned of a leak. A worker that keeps a handle open is still warned of.
  workerGracefulExitTimeout: 5000,
};
