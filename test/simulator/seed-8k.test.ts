import { SEED_BRUTAL } from '../../simulator/scenarios/seed-brutal.js';
import { SEED_STRESS } from '../../simulator/scenarios/seed-stress.js';
import { describeGuardScenarios } from './scenario-suite.js';

describeGuardScenarios(
  'seed stress scenarios, 8k window, under ContextGuard',
  SEED_STRESS.filter((spec) => spec.window !== 200_000),
);
describeGuardScenarios(
  'seed brutal scenarios, 8k window, under ContextGuard',
  SEED_BRUTAL.filter((spec) => spec.window !== 200_000),
);
