import { SEAMS_AGENT_TOOL } from '../../simulator/scenarios/seams-agent-tool.js';
import { describeGuardScenarios } from './scenario-suite.js';

describeGuardScenarios('an AgentTool child under plugin-only attachment, under ContextGuard', SEAMS_AGENT_TOOL);
