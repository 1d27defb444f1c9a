/**
 * A scenario's turn pattern resolved for one turn: the user's message, its
 * attachments, the tool steps and the size of the final answer.
 */
import type { Content, Part } from '@google/genai';
import { imageBase64, pdfBase64, userMessage } from '../src/testing/index.js';
import type { AttachmentSpec, ScenarioSpec, TurnTools } from './scenario-types.js';
import { workMessage } from './tool-work.js';
import type { RecordedTurn } from './trajectories/recorded-run.js';

export interface TurnPlan {
  readonly turn: number;
  /** The user's text, unique to the turn. */
  readonly message: string;
  readonly attachments: readonly AttachmentSpec[];
  readonly tools: TurnTools;
  readonly responseChars: number;
  /** The recorded turn a replay answers from (`message` is its user text). */
  readonly replay?: RecordedTurn | undefined;
}

function cycled<T>(items: readonly T[] | undefined, turn: number, fallback: T): T {
  if (!items || items.length === 0) return fallback;
  return items[(turn - 1) % items.length] ?? fallback;
}

export function planTurn(spec: ScenarioSpec, turn: number): TurnPlan {
  const recorded = spec.replay?.turns[turn - 1];
  if (recorded) return { turn, message: recorded.user, attachments: [], tools: [], responseChars: 0, replay: recorded };
  if (spec.work)
    return { turn, message: workMessage(spec.work.kind, turn), attachments: [], tools: [], responseChars: 0 };
  const pattern = spec.turnPattern;
  return {
    turn,
    message: userMessage(turn, cycled(pattern.messageChars, turn, 160)),
    attachments: cycled(pattern.attachments, turn, []),
    tools: cycled(pattern.tools, turn, []),
    responseChars: cycled(pattern.responseChars, turn, 120),
  };
}

function attachmentPart(attachment: AttachmentSpec, seed: number): Part {
  if (attachment.kind === 'png') {
    return {
      inlineData: {
        mimeType: 'image/png',
        data: imageBase64(attachment.width ?? 512, attachment.height ?? 512, attachment.base64Chars, seed),
      },
    };
  }
  return {
    inlineData: { mimeType: 'application/pdf', data: pdfBase64(attachment.pages ?? 1, attachment.base64Chars, seed) },
  };
}

/** The user content of a turn: the message, then its attachments. */
export function userContent(plan: TurnPlan): Content {
  return {
    role: 'user',
    parts: [
      { text: plan.message },
      ...plan.attachments.map((attachment, i) => attachmentPart(attachment, plan.turn * 10 + i)),
    ],
  };
}
