import { describe, expect, it } from 'vitest';
import { Language, Outcome, type Content } from '@google/genai';
import { foreignContext, modelText, userText } from '../../test/support/builders.js';
import { contentLines } from '../recall/result-lines.js';
import { isUserRequest } from '../content/content-shape.js';
import { isOwnToolResult } from '../content/tool-result.js';
import { markRenderedCodeOutputs, renderedCodeOutput, type OutputDelimiters } from '../content/code-output.js';
import { copyMasked } from './placeholder-copy.js';
import { EDITED_PART_SIGNATURE } from '../content/thought-signature.js';
import { maskContent, maskKeepFrom } from './mask-observations.js';

const output = `row,total\n${Array.from({ length: 300 }, (_, i) => `${i},${i * 7}`).join('\n')}\nchecksum 7fa3c9`;
const hint = { recallToolName: 'recall_context' };

/** A model content as Gemini's code execution answers: code, its output, then words. */
const ran = (result: string): Content => ({
  role: 'model',
  parts: [
    { executableCode: { language: Language.PYTHON, code: 'print(totals())' } },
    { codeExecutionResult: { outcome: Outcome.OUTCOME_OK, output: result } },
    { text: 'The totals are computed.' },
  ],
});

/** What ADK's own executors write: the output as the text of a part that carries the outcome only. */
const ranLocally = (result: string): Content => ({
  role: 'model',
  parts: [{ text: `Code execution result:\n${result}\n`, codeExecutionResult: { outcome: Outcome.OUTCOME_OK } }],
});

/** ADK's default delimiters of a code run's output sent as text (`BaseCodeExecutor.executionResultDelimiters`). */
const ADK_DELIMITERS: OutputDelimiters = ['```tool_output\n', '\n```'];

/** A run's output `text` between `delimiters`, marked as the shell marks it for an agent with that executor. */
function rendered(text: string, delimiters: OutputDelimiters = ADK_DELIMITERS): Content {
  const content: Content = { role: 'user', parts: [{ text: `${delimiters[0]}${text}${delimiters[1]}` }] };
  markRenderedCodeOutputs([content], delimiters, (ran) => ran === text);
  return content;
}

describe('masking the output of a code run', () => {
  it("should replace Gemini's code execution output by a placeholder, keeping the code and the words", () => {
    const content = ran(output);
    const masked = maskContent(content, hint, 2_000);
    expect(masked.parts?.[0]).toEqual(content.parts?.[0]);
    expect(masked.parts?.[2]).toEqual(content.parts?.[2]);
    const text = masked.parts?.[1]?.codeExecutionResult?.output ?? '';
    expect(text).toContain(`Output of the code run (${output.length} characters)`);
    expect(text).toContain('call recall_context with words from it');
    expect(text).not.toContain('checksum 7fa3c9');
    expect(masked.parts?.[1]?.codeExecutionResult?.outcome).toBe(Outcome.OUTCOME_OK);
    expect(content.parts?.[1]?.codeExecutionResult?.output).toBe(output);
  });

  it('should mask the text an ADK executor wrote the output in, and never offer to run the code again', () => {
    const masked = maskContent(ranLocally(output), {}, 2_000);
    expect(masked.parts?.[0]?.text).toContain('Output of the code run (');
    expect(masked.parts?.[0]?.text).toContain('not recoverable by this agent');
    expect(masked.parts?.[0]?.codeExecutionResult).toEqual({ outcome: Outcome.OUTCOME_OK });
  });

  it('should leave a short output, a masked one and a small content as they are', () => {
    const short = ran('42');
    expect(maskContent(short, hint, 2_000)).toBe(short);
    const masked = maskContent(ran(output), hint, 2_000);
    expect(maskContent(masked, hint, 2_000)).toBe(masked);
    const small = ran(output);
    expect(maskContent(small, hint, 100)).toBe(small);
  });

  it("should keep the in-flight turn's latest code run as it keeps its latest tool result", () => {
    const contents = [userText('Totals?'), ran(output), userText('And again?'), ran(output), ran(output)];
    expect(maskKeepFrom(contents, 1)).toBe(4);
    expect(maskKeepFrom(contents, 2)).toBe(3);
    expect(maskKeepFrom([...contents.slice(0, 3), modelText('Sure.')], 1)).toBe(2);
  });

  it("should not count another agent's code runs, copied into its `For context:` content, as this agent's", () => {
    const handed = (result: string): Content => ({
      ...foreignContext('[coder] said: ran it'),
      parts: [...(foreignContext('[coder] said: ran it').parts ?? []), ...(ran(result).parts ?? [])],
    });
    const contents = [userText('Write it up.'), handed(output), handed(output), handed(output)];
    expect(maskKeepFrom(contents, 1)).toBe(0);
  });

  it('should mask an output that merely starts with the placeholder words', () => {
    const printed = ran(`Output of the code run (3 characters) follows\n${output}`);
    expect(maskContent(printed, hint, 2_000).parts?.[1]?.codeExecutionResult?.output).toMatch(
      /^Output of the code run \(\d+ characters\) elided/,
    );
  });

  it('should give every call its own code objects, so an edit in place never reaches the next', () => {
    const kept = copyMasked(maskContent(ran(output), hint, 2_000));
    const sent = copyMasked(kept);
    const code = sent.parts?.[0]?.executableCode;
    if (code) code.code = `${code.code ?? ''} # reviewed`;
    const result = sent.parts?.[1]?.codeExecutionResult;
    if (result) result.output = 'edited';
    expect(copyMasked(kept)).toEqual(copyMasked(maskContent(ran(output), hint, 2_000)));
  });

  it("should let the recall tool read a run's code and output by line", () => {
    const lines = contentLines(ran(output));
    expect(lines).toContain('print(totals())');
    expect(lines).toContain('checksum 7fa3c9');
    expect(lines).toContain('150,1050');
  });

  it("should mask a run's output ADK sends as a user's text, keep its delimiters, and not take it for the user's", () => {
    const run = rendered(output);
    expect(isUserRequest(run)).toBe(false);
    expect(isUserRequest(userText(`Here is what I got:\n\`\`\`tool_output\n${output}\n\`\`\``))).toBe(true);
    const masked = maskContent(run, hint, 2_000);
    expect(masked.parts?.[0]?.text).toMatch(
      /^```tool_output\nOutput of the code run \(\d+ characters\) elided[^]*\n```$/,
    );
    expect(maskContent(masked, hint, 2_000)).toBe(masked);
    // The masked copy is still the run's output, not a user's text.
    expect(isUserRequest(masked)).toBe(false);
    expect(isUserRequest(copyMasked(masked))).toBe(false);
    const contents = [userText('Totals?'), run, modelText('Done.'), userText('Again?'), run, run];
    expect(maskKeepFrom(contents, 1)).toBe(5);
  });

  it("should count as this agent's own result its code runs in either shape, never another agent's", () => {
    const run = rendered(output);
    const handed: Content = { role: 'user', parts: [{ text: 'For context:' }, ...(ran(output).parts ?? [])] };
    expect([ran(output), run, handed, userText('Totals?')].map(isOwnToolResult)).toEqual([true, true, false, false]);
  });

  it("should read a user's text in that shape as the user's, unless the shell marked it for the agent's executor", () => {
    // An agent without a code executor: ADK never renders an output so, and a message can be exactly this.
    const pasted: Content = { role: 'user', parts: [{ text: `\`\`\`tool_output\n${output}\n\`\`\`` }] };
    expect(isUserRequest(pasted)).toBe(true);
    expect(maskContent(pasted, hint, 2_000)).toBe(pasted);
    expect(isOwnToolResult(pasted)).toBe(false);
    // An executor with delimiters of its own: only its shape is its output.
    const custom: OutputDelimiters = ['<output>\n', '\n</output>'];
    const mine = { role: 'user', parts: [{ text: `<output>\n${output}\n</output>` }] };
    markRenderedCodeOutputs([mine, pasted], custom, (ran) => ran === output);
    expect(renderedCodeOutput(mine)).toBe(output);
    expect(isUserRequest(pasted)).toBe(true);
    expect(maskContent(mine, hint, 2_000).parts?.[0]?.text).toMatch(
      /^<output>\nOutput of the code run [^]*\n<\/output>$/,
    );
    // Nothing tells an output from a message between empty delimiters: none is marked.
    const bare = { role: 'user', parts: [{ text: output }] };
    markRenderedCodeOutputs([bare], ['', ''], (ran) => ran === output);
    expect(isUserRequest(bare)).toBe(true);
  });

  it("should read as an output only what one of the session's runs gave, not a user's message in its shape", () => {
    // An agent with an executor: a message pasted in ADK's shape holds no output of the session's runs.
    const pasted: Content = { role: 'user', parts: [{ text: `\`\`\`tool_output\nmy own notes\n\`\`\`` }] };
    const run: Content = { role: 'user', parts: [{ text: `\`\`\`tool_output\n${output}\n\`\`\`` }] };
    markRenderedCodeOutputs([pasted, run], ADK_DELIMITERS, (ran) => ran === output);
    expect(isUserRequest(pasted)).toBe(true);
    expect(renderedCodeOutput(run)).toBe(output);
  });

  it('should read a frozen content as marked, and read again a marked content a callback rewrote', () => {
    const frozen = Object.freeze({ role: 'user', parts: [{ text: `\`\`\`tool_output\n${output}\n\`\`\`` }] });
    markRenderedCodeOutputs([frozen], ADK_DELIMITERS, (ran) => ran === output);
    expect(renderedCodeOutput(frozen)).toBe(output);
    const run = rendered(output);
    run.parts = [{ text: 'Please summarize the run above.' }];
    expect(isUserRequest(run)).toBe(true);
  });

  it('should sign a masked output as an edited part when the model had signed it', () => {
    const signed: Content = {
      role: 'model',
      parts: (ran(output).parts ?? []).map((part, i) => (i === 1 ? { ...part, thoughtSignature: 'c2lnbmVk' } : part)),
    };
    const masked = maskContent(signed, hint, 2_000);
    expect(masked.parts?.[1]?.codeExecutionResult?.output).toMatch(/^Output of the code run/);
    expect(masked.parts?.[1]?.thoughtSignature).toBe(EDITED_PART_SIGNATURE);
    expect(masked.parts?.[0]).toBe(signed.parts?.[0]);
  });
});
