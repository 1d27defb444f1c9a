/**
 * The recorded public runs: the converters of the three sources (tau-bench's
 * chat messages, SWE-agent's steps, mini-swe-agent's tool-calling messages),
 * the selection rules of docs/simulator.md, the loader's shape check, and the
 * committed data as the rule selected it.
 */
import { describe, expect, it } from 'vitest';
import {
  convertMiniSweAgentRun,
  miniSweAgentSteps,
  selectMiniSweAgentRuns,
  type MiniSweAgentTrajectory,
} from '../../simulator/trajectories/convert-mini-swe-agent.js';
import {
  CODING_RUN_ANSWER,
  convertSweAgentRun,
  selectSweAgentRuns,
  SWE_AGENT_TOOL,
} from '../../simulator/trajectories/convert-swe-agent.js';
import {
  convertTauBenchRun,
  selectHeldOutTauBenchRuns,
  selectTauBenchRuns,
  type TauBenchRun,
} from '../../simulator/trajectories/convert-tau-bench.js';
import { heldOutReplays } from '../../simulator/scenarios/replays.js';
import { loadTrajectories, parseTrajectoryFile } from '../../simulator/trajectories/load-trajectories.js';
import { MAX_OUTPUT_CHARS, toolCallCount } from '../../simulator/trajectories/recorded-run.js';

const toolCall = (id: string, name: string, args: object) => ({
  id,
  function: { name, arguments: JSON.stringify(args) },
});

const TAU_RUN: TauBenchRun = {
  task_id: 7,
  trial: 0,
  traj: [
    { role: 'system', content: 'Airline policy.' },
    { role: 'user', content: 'Change my flight.' },
    { role: 'assistant', content: 'Your user id, please?' },
    { role: 'user', content: 'mia_li_3668' },
    { role: 'assistant', content: null, tool_calls: [toolCall('c1', 'get_user_details', { user_id: 'mia_li_3668' })] },
    { role: 'tool', tool_call_id: 'c1', content: '{"name":"Mia"}' },
    {
      role: 'assistant',
      content: 'Let me look at both reservations.',
      tool_calls: [
        toolCall('c2', 'get_reservation_details', { id: 'A' }),
        toolCall('c3', 'get_reservation_details', { id: 'B' }),
      ],
    },
    // Outputs may come in any order; they are matched by call id.
    { role: 'tool', tool_call_id: 'c3', content: 'reservation B' },
    { role: 'tool', tool_call_id: 'c2', content: 'x'.repeat(MAX_OUTPUT_CHARS + 10) },
    { role: 'assistant', content: 'Reservation A goes to SEA.' },
    { role: 'user', content: '###STOP###' },
  ],
};

describe('convertTauBenchRun', () => {
  it('should make one turn per user message, with the tool steps, their outputs and the text answer', () => {
    const run = convertTauBenchRun(TAU_RUN, 'airline-task7', 'src');
    expect(run).toMatchObject({ id: 'airline-task7', kind: 'support', systemPrompt: 'Airline policy.' });
    // The last, unanswered user message (the simulated user's stop) is dropped.
    expect(run.turns.map((turn) => turn.user)).toEqual(['Change my flight.', 'mia_li_3668']);
    expect(run.turns[0]).toEqual({ user: 'Change my flight.', steps: [], answer: 'Your user id, please?' });
    const [first, second] = run.turns[1]?.steps ?? [];
    expect(first).toEqual({
      calls: [{ name: 'get_user_details', args: { user_id: 'mia_li_3668' }, output: '{"name":"Mia"}' }],
    });
    expect(second?.text).toBe('Let me look at both reservations.');
    expect(second?.calls.map((call) => [call.args['id'], call.output.length])).toEqual([
      ['A', MAX_OUTPUT_CHARS],
      ['B', 'reservation B'.length],
    ]);
    expect(run.turns[1]?.answer).toBe('Reservation A goes to SEA.');
    expect(toolCallCount(run)).toBe(3);
  });

  it('should refuse a call whose output was never recorded rather than replay a made-up one', () => {
    const traj = (TAU_RUN.traj ?? []).filter((message) => message.tool_call_id !== 'c3');
    expect(() => convertTauBenchRun({ ...TAU_RUN, traj }, 'broken', 'src')).toThrow(/get_reservation_details/);
  });
});

describe('selectTauBenchRuns', () => {
  it('should take trial 0 in task order with enough user messages and tool calls, the first `count`', () => {
    const users = (n: number) => Array.from({ length: n }, () => ({ role: 'user', content: 'hi' }));
    const tools = (n: number) => Array.from({ length: n }, () => ({ role: 'tool', content: 'ok' }));
    const runs: TauBenchRun[] = [
      { task_id: 9, trial: 0, traj: [...users(10), ...tools(5)] },
      { task_id: 2, trial: 0, traj: [...users(12), ...tools(6)] },
      { task_id: 1, trial: 1, traj: [...users(12), ...tools(6)] },
      { task_id: 3, trial: 0, traj: [...users(9), ...tools(9)] },
      { task_id: 5, trial: 0, traj: [...users(11), ...tools(4)] },
      { task_id: 12, trial: 0, traj: [...users(20), ...tools(20)] },
    ];
    const chosen = selectTauBenchRuns(runs, { minUsers: 10, minTools: 5, count: 2 });
    expect(chosen.map((run) => run.task_id)).toEqual([2, 9]);
  });

  it('should take for the held-out set later trials in (trial, task) order, never a task already taken', () => {
    const users = (n: number) => Array.from({ length: n }, () => ({ role: 'user', content: 'hi' }));
    const tools = (n: number) => Array.from({ length: n }, () => ({ role: 'tool', content: 'ok' }));
    const enough = [...users(10), ...tools(5)];
    const runs: TauBenchRun[] = [
      { task_id: 4, trial: 2, traj: enough },
      { task_id: 2, trial: 1, traj: enough },
      { task_id: 7, trial: 0, traj: enough },
      { task_id: 9, trial: 1, traj: enough },
      { task_id: 8, trial: 1, traj: [...users(10), ...tools(4)] },
      { task_id: 1, trial: 3, traj: enough },
    ];
    const chosen = selectHeldOutTauBenchRuns(runs, new Set([2]), { minUsers: 10, minTools: 5, count: 3 });
    expect(chosen.map((run) => `${run.trial}:${run.task_id}`)).toEqual(['1:9', '2:4', '3:1']);
  });
});

describe('convertSweAgentRun and selectSweAgentRuns', () => {
  const traj = {
    history: [
      { role: 'system', content: 'You are an autonomous programmer.' },
      { role: 'user', content: 'A demonstration.', is_demo: true },
      { role: 'user', content: 'Fix the rounding of TimeDelta.' },
    ],
    trajectory: [
      { thought: 'Look around.\n', action: 'ls -F\n', observation: 'src/\nsetup.py' },
      { thought: '', action: 'submit\n', observation: 'diff --git a/x b/x' },
    ],
  };

  it('should make a coding run ONE turn: the task, then every step as a call of the run tool', () => {
    const run = convertSweAgentRun(traj, 'swe-x', 'src');
    expect(run.kind).toBe('coding');
    expect(run.systemPrompt).toBe('You are an autonomous programmer.');
    expect(run.turns).toEqual([
      {
        user: 'Fix the rounding of TimeDelta.',
        steps: [
          {
            text: 'Look around.',
            calls: [{ name: SWE_AGENT_TOOL, args: { command: 'ls -F' }, output: 'src/\nsetup.py' }],
          },
          { calls: [{ name: SWE_AGENT_TOOL, args: { command: 'submit' }, output: 'diff --git a/x b/x' }] },
        ],
        answer: CODING_RUN_ANSWER,
      },
    ]);
  });

  it('should take one run per task, the first path naming it, with enough steps', () => {
    const steps = (n: number) => ({ trajectory: Array.from({ length: n }, () => ({ action: 'ls' })) });
    const files = [
      { path: 'd/replay__b__fmt2/task-b.traj', traj: steps(20) },
      { path: 'd/ctf/a.traj', traj: steps(12) },
      { path: 'd/replay__b__fmt1/task-b.traj', traj: steps(13) },
      { path: 'd/ctf/short.traj', traj: steps(4) },
      { path: 'd/ctf/z.traj', traj: steps(30) },
    ];
    expect(selectSweAgentRuns(files, { minSteps: 12, count: 2 }).map((file) => file.path)).toEqual([
      'd/ctf/a.traj',
      'd/ctf/z.traj',
    ]);
    expect(selectSweAgentRuns(files, { minSteps: 12, count: 5 }).map((file) => file.path)).toEqual([
      'd/ctf/a.traj',
      'd/ctf/z.traj',
      'd/replay__b__fmt1/task-b.traj',
    ]);
  });
});

// The shape of a mini-swe-agent run (output/deepseek_chat_dev/... of SWE-agent/mini-swe-agent pull/816),
// cut to three steps.
const MINI_RUN: MiniSweAgentTrajectory = {
  messages: [
    { role: 'system', content: 'You are a helpful assistant that can interact with a computer shell.' },
    { role: 'user', content: '<pr_description>\ntemperature.fuentes errors on tz-aware inputs\n</pr_description>' },
    {
      role: 'assistant',
      content: 'Let me first check the current directory.\n',
      tool_calls: [toolCall('call_00_a', 'bash', { command: 'pwd && ls -la' })],
    },
    { role: 'tool', tool_call_id: 'call_00_a', content: '<returncode>0</returncode>\n<output>\n/testbed\n</output>' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [toolCall('call_00_b', 'bash', { command: 'cat pvlib/temperature.py' })],
    },
    { role: 'tool', tool_call_id: 'call_00_b', content: 'y'.repeat(MAX_OUTPUT_CHARS + 1) },
    {
      role: 'assistant',
      content: 'Now let me submit:',
      tool_calls: [
        toolCall('call_00_c', 'bash', { command: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt' }),
      ],
    },
    // mini-swe-agent stops on the submitting command: what it printed is the exit message.
    { role: 'exit', content: 'diff --git a/pvlib/temperature.py b/pvlib/temperature.py' },
  ],
};

describe('convertMiniSweAgentRun and selectMiniSweAgentRuns', () => {
  it('should make a coding run ONE turn: the task, then every assistant step with its bash call and output', () => {
    const run = convertMiniSweAgentRun(MINI_RUN, 'mini-x', 'src');
    expect(run).toMatchObject({ id: 'mini-x', kind: 'coding', source: 'src' });
    expect(run.systemPrompt).toBe('You are a helpful assistant that can interact with a computer shell.');
    expect(run.turns).toHaveLength(1);
    const [turn] = run.turns;
    expect(turn?.user).toBe('<pr_description>\ntemperature.fuentes errors on tz-aware inputs\n</pr_description>');
    expect(turn?.answer).toBe(CODING_RUN_ANSWER);
    expect(turn?.steps[0]).toEqual({
      text: 'Let me first check the current directory.',
      calls: [
        {
          name: 'bash',
          args: { command: 'pwd && ls -la' },
          output: '<returncode>0</returncode>\n<output>\n/testbed\n</output>',
        },
      ],
    });
    // No text, and an output over the rule's limit cut there.
    expect(turn?.steps[1]?.text).toBeUndefined();
    expect(turn?.steps[1]?.calls[0]?.output).toHaveLength(MAX_OUTPUT_CHARS);
    // The submitting call's output is the submission mini-swe-agent recorded as the exit message.
    expect(turn?.steps[2]?.calls[0]?.output).toBe('diff --git a/pvlib/temperature.py b/pvlib/temperature.py');
    expect(toolCallCount(run)).toBe(3);
    expect(miniSweAgentSteps(MINI_RUN)).toBe(3);
  });

  it('should refuse a run it would have to change: a call with no recorded output, a second user message', () => {
    const messages = MINI_RUN.messages ?? [];
    const noOutput = messages.filter((message) => message.tool_call_id !== 'call_00_a');
    expect(() => convertMiniSweAgentRun({ messages: noOutput }, 'broken', 'src')).toThrow(/call_00_a/);
    const twoUsers = [
      ...messages.slice(0, 4),
      { role: 'user', content: 'Please use one bash block.' },
      ...messages.slice(4),
    ];
    expect(() => convertMiniSweAgentRun({ messages: twoUsers }, 'broken', 'src')).toThrow(/2 user messages/);
  });

  it('should take, in path order, one run per task with 30 to 95 tool steps, the first `count`, reading no further', () => {
    const steps = (n: number): MiniSweAgentTrajectory => ({
      messages: Array.from({ length: n }, (_, i) => ({
        role: 'assistant',
        tool_calls: [toolCall(`c${i}`, 'bash', { command: 'ls' })],
      })),
    });
    const files: Record<string, MiniSweAgentTrajectory> = {
      'output/dev/a-1/a-1.traj.json': steps(104),
      'output/dev/b-2/b-2.traj.json': steps(30),
      'output/dev_rerun/a-1/a-1.traj.json': steps(50),
      'output/dev/c-3/c-3.traj.json': steps(95),
      'output/dev/d-4/d-4.traj.json': steps(29),
      'output/test/e-5/e-5.traj.json': steps(60),
    };
    const read: string[] = [];
    const load = (path: string): MiniSweAgentTrajectory => {
      read.push(path);
      const traj = files[path];
      if (!traj) throw new Error(path);
      return traj;
    };
    const paths = [...Object.keys(files), 'output/zz/unreadable.traj.json'];
    // a-1's first path has 104 steps: the task is spent, its rerun is not taken.
    expect(selectMiniSweAgentRuns(paths, load, { minSteps: 30, maxSteps: 95, count: 3 }).map((f) => f.path)).toEqual([
      'output/dev/b-2/b-2.traj.json',
      'output/dev/c-3/c-3.traj.json',
      'output/test/e-5/e-5.traj.json',
    ]);
    expect(read).not.toContain('output/zz/unreadable.traj.json');
    expect(read).not.toContain('output/dev_rerun/a-1/a-1.traj.json');
  });
});

describe('loadTrajectories', () => {
  it('should name the wrong field of a hand-edited file', () => {
    const run = {
      id: 'r',
      kind: 'support',
      source: 's',
      systemPrompt: 'p',
      turns: [{ user: 'u', steps: [], answer: 'a' }],
    };
    expect(parseTrajectoryFile({ licence: 'MIT', runs: [run] }, 'f.json').runs).toHaveLength(1);
    const badCall = {
      ...run,
      turns: [{ user: 'u', answer: 'a', steps: [{ calls: [{ name: 'n', args: {}, output: 5 }] }] }],
    };
    expect(() => parseTrajectoryFile({ licence: 'MIT', runs: [badCall] }, 'f.json')).toThrow(
      'f.json.runs[0].turns[0].steps[0].calls[0].output must be a string',
    );
    expect(() => parseTrajectoryFile({ licence: 'MIT', runs: [{ ...run, kind: 'chat' }] }, 'f.json')).toThrow(/kind/);
  });

  it('should hold the runs the selection rule picked: 6 support dialogues of 9-14 turns, 6 one-turn coding runs of 12-21 steps', () => {
    const support = loadTrajectories('support');
    expect(support.map((run) => run.id)).toEqual([
      'airline-task3',
      'airline-task10',
      'airline-task13',
      'airline-task19',
      'airline-task24',
      'airline-task31',
    ]);
    for (const run of support) {
      expect(run.turns.length).toBeGreaterThanOrEqual(9);
      expect(toolCallCount(run)).toBeGreaterThanOrEqual(5);
    }
    const coding = loadTrajectories('coding');
    expect(coding).toHaveLength(6);
    for (const run of coding) {
      expect(run.turns).toHaveLength(1);
      expect(run.turns[0]?.steps.length).toBeGreaterThanOrEqual(12);
      expect(run.source).toMatch(/^SWE-agent\/SWE-agent@3ea751c0/);
    }
  });

  it('should hold the longer coding runs the rule picked: the first 6 of pull/816, the one of pull/854, 30-95 steps each', () => {
    const long = loadTrajectories('long-coding');
    expect(long.map((run) => run.id)).toEqual([
      'mini-marshmallow-code-marshmallow-1359',
      'mini-pvlib-pvlib-python-1072',
      'mini-pvlib-pvlib-python-1154',
      'mini-pvlib-pvlib-python-1606',
      'mini-pvlib-pvlib-python-1707',
      'mini-pvlib-pvlib-python-1854',
      'mini-astropy-astropy-12907',
    ]);
    for (const run of long) {
      expect(run.kind).toBe('coding');
      expect(run.turns).toHaveLength(1);
      expect(run.turns[0]?.steps.length).toBeGreaterThanOrEqual(30);
      expect(run.turns[0]?.steps.length).toBeLessThanOrEqual(95);
      expect(toolCallCount(run)).toBe(run.turns[0]?.steps.length);
      expect(run.source).toMatch(/^SWE-agent\/mini-swe-agent@(e5e0fbca|9672e6b7)[0-9a-f]{32} \(pull\/(816|854)\):/);
    }
  });

  it('should hold the held-out runs the written rule picked, none of them a committed run or task', () => {
    const committed = [...loadTrajectories('support'), ...loadTrajectories('long-coding')];
    const support = loadTrajectories('support', 'held-out');
    const long = loadTrajectories('long-coding', 'held-out');
    expect(support.map((run) => run.id)).toEqual([
      'airline-task17-trial1',
      'airline-task20-trial1',
      'airline-task22-trial1',
      'airline-task23-trial1',
      'airline-task26-trial1',
      'airline-task4-trial2',
    ]);
    expect(long).toHaveLength(6);
    const taskOf = (source: string): string => source.replace(/.*[(:]/, '').replace(/, trial \d+\)$/, '');
    const committedTasks = new Set(committed.map((run) => taskOf(run.source)));
    for (const run of [...support, ...long]) expect(committedTasks.has(taskOf(run.source))).toBe(false);
    for (const run of long) {
      expect(run.turns[0]?.steps.length).toBeGreaterThanOrEqual(30);
      expect(run.turns[0]?.steps.length).toBeLessThanOrEqual(95);
    }
    const names = heldOutReplays().map((scenario) => scenario.name);
    expect(names).toHaveLength(4 * 12);
    expect(names.every((name) => /^\d+k_HeldOut_/.test(name))).toBe(true);
  });

  it('should hold the second held-out set its rule picked, no run or task of the sets before it', () => {
    const earlier = [
      ...loadTrajectories('support'),
      ...loadTrajectories('long-coding'),
      ...loadTrajectories('support', 'held-out'),
      ...loadTrajectories('long-coding', 'held-out'),
    ];
    const support = loadTrajectories('support', 'held-out-2');
    const long = loadTrajectories('long-coding', 'held-out-2');
    expect(support.map((run) => run.id)).toEqual([
      'airline-task33-trial2',
      'airline-task0-trial3',
      'airline-task15-trial3',
      'airline-task25-trial3',
      'airline-task27-trial3',
      'airline-task30-trial3',
    ]);
    expect(long).toHaveLength(6);
    const taskOf = (source: string): string => source.replace(/.*[(:]/, '').replace(/, trial \d+\)$/, '');
    const airlineTask = (source: string): string => /task_id (\d+)/.exec(source)?.[1] ?? source;
    const earlierTasks = new Set(earlier.map((run) => taskOf(run.source)));
    const earlierAirline = new Set(earlier.map((run) => airlineTask(run.source)));
    for (const run of long) expect(earlierTasks.has(taskOf(run.source))).toBe(false);
    for (const run of support) expect(earlierAirline.has(airlineTask(run.source))).toBe(false);
    const names = heldOutReplays(2).map((scenario) => scenario.name);
    expect(names).toHaveLength(4 * 12);
    expect(names.every((name) => /^\d+k_HeldOut2_/.test(name))).toBe(true);
  });

  it('should hold the third held-out set its rule picked: retail dialogues and telecom solo loops of tau2-bench', () => {
    const support = loadTrajectories('support', 'held-out-3');
    const loops = loadTrajectories('long-coding', 'held-out-3');
    expect(support.map((run) => run.id)).toEqual([
      'retail-task18',
      'retail-task32',
      'retail-task36',
      'retail-task38',
      'retail-task62',
      'retail-task71',
    ]);
    expect(support.every((run) => run.source.includes('tau2-bench') && run.source.includes('retail'))).toBe(true);
    expect(loops).toHaveLength(6);
    for (const run of loops) {
      expect(run.turns).toHaveLength(1);
      expect(toolCallCount(run)).toBeGreaterThanOrEqual(20);
    }
    const names = heldOutReplays(3).map((scenario) => scenario.name);
    expect(names).toHaveLength(4 * 12);
    expect(names.every((name) => /^\d+k_HeldOut3_/.test(name))).toBe(true);
  });
});
