import { SEAMS_TURN } from '../../simulator/scenarios/seams-turn.js';
import { describeGuardScenarios } from './scenario-suite.js';

describeGuardScenarios(
  'the turn in flight (a message with screenshots and a long task, many tool steps) under ContextGuard',
  SEAMS_TURN,
);
