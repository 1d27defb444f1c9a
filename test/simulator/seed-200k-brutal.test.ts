import { SEED_BRUTAL } from '../../simulator/scenarios/seed-brutal.js';
import { describeGuardScenarios } from './scenario-suite.js';

describeGuardScenarios(
  'seed brutal scenarios, 200k window, under ContextGuard',
  SEED_BRUTAL.filter((spec) => spec.window === 200_000),
);
