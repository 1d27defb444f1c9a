import { SEAMS_WINDOW } from '../../simulator/scenarios/seams-window.js';
import { describeGuardScenarios } from './scenario-suite.js';

describeGuardScenarios(
  'window seams (unknown model with a small real window, irreducible system prompt) under ContextGuard',
  SEAMS_WINDOW,
);
