import { EXTRA } from '../../simulator/scenarios/extra.js';
import { SEED_SEQUENTIAL } from '../../simulator/scenarios/seed-sequential.js';
import { describeGuardScenarios } from './scenario-suite.js';

describeGuardScenarios('seed sequential tool chains under ContextGuard', SEED_SEQUENTIAL);
describeGuardScenarios(
  'extra scenarios (4k-1M windows, media, drift, agents, summarizer failures) under ContextGuard',
  EXTRA,
);
