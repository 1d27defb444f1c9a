import { SEED_STRESS } from '../../simulator/scenarios/seed-stress.js';
import { describeGuardScenarios } from './scenario-suite.js';

// Split by window so the test files take about the same time on two workers.
describeGuardScenarios(
  'seed stress scenarios, 200k window, under ContextGuard',
  SEED_STRESS.filter((spec) => spec.window === 200_000),
);
