// Jest starts the longest suites first, by the durations of earlier runs; a fresh clone has none,
// and jest then goes by file size, which put the slowest suite (test/pipeline/dependency-faults,
// a short file) near the end of CI's run, with the other worker idle. Without timings, the suites
// that drive the whole pipeline or spawn the stack come first, then the CDK and HTTP suites.
const Sequencer = require('@jest/test-sequencer').default;

const SLOW_FIRST = [/\/test\/(e2e|pipeline)\//, /\/test\/(cdk|http|openapi|browser)\//];
const rank = (path) => {
  const index = SLOW_FIRST.findIndex((pattern) => pattern.test(path));
  return index === -1 ? SLOW_FIRST.length : index;
};

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration != null)) return sorted;
    return sorted
      .map((test, index) => ({ test, index }))
      .sort((a, b) => rank(a.test.path) - rank(b.test.path) || a.index - b.index)
      .map(({ test }) => test);
  }
}

module.exports = SlowFirstSequencer;
