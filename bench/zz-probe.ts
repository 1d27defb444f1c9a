import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { runSteadyState } from './steady.js';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
const r = await runSteadyState({
  checkpoints: [1_000_000],
  log: () => {},
  aroundCompaction: {
    before: async () => { await session.post('Profiler.start'); },
    after: async () => { const { profile } = await session.post('Profiler.stop'); writeFileSync('/tmp/probe/compaction.cpuprofile', JSON.stringify(profile)); },
  },
});
console.log(JSON.stringify({ overhead: r.compaction?.overheadMs, breakdown: r.compaction?.breakdown }));
