/**
 * Where a run stands: the current turn and its plan, and how many model calls
 * each agent has made in it. The runner advances it; the observer, the
 * script, the ground truth (ratio drift) and usage reporting read it.
 */
import type { TurnPlan } from './turn-plan.js';

export class SimulationClock {
  turn = 0;
  plan: TurnPlan | undefined;
  private readonly stepsByAgent = new Map<string, number>();

  startTurn(plan: TurnPlan): void {
    this.turn = plan.turn;
    this.plan = plan;
    this.stepsByAgent.clear();
  }

  /** Registers a model call of `agent` and returns its step in the turn (0 for its first call). */
  nextStep(agent: string): number {
    const step = this.stepsByAgent.get(agent) ?? 0;
    this.stepsByAgent.set(agent, step + 1);
    return step;
  }
}
