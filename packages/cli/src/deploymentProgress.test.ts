import { Writable } from 'node:stream';
import type { WorkflowStatus } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import { createProgressView, progressBar } from './deploymentProgress.js';
import { Output } from './output.js';

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    { isTTY },
  );
  return { stream, text: () => chunks.join('') };
}

const step = (name: string, status: 'pending' | 'in_progress' | 'completed' | 'failed', error?: string) => ({
  name,
  description: name,
  status,
  error: error ?? null,
});

const statusOf = (progress: number, steps: ReturnType<typeof step>[]) =>
  ({
    progress,
    currentStepName: steps.find((s) => s.status === 'in_progress')?.name ?? 'done',
    steps,
  }) as unknown as WorkflowStatus;

describe('deployment progress', () => {
  it('draws a bar of the progress and the current step', () => {
    expect(progressBar({ progress: 0, currentStepName: 'provision-vm' })).toBe(
      `[${'.'.repeat(30)}]   0%  provision-vm`,
    );
    expect(progressBar({ progress: 50, currentStepName: 'deploy-application' })).toBe(
      `[${'#'.repeat(15)}${'.'.repeat(15)}]  50%  deploy-application`,
    );
  });

  it('redraws one line on a terminal, and clears it at the end', () => {
    const stderr = sink(true);
    const view = createProgressView(new Output(false, sink(false).stream, stderr.stream));
    view.update(statusOf(10, [step('fetch-source', 'in_progress')]));
    view.update(statusOf(20, [step('fetch-source', 'completed'), step('detect-project', 'in_progress')]));
    view.finish();
    expect(stderr.text().split('\r\x1b[2K')).toEqual([
      '',
      progressBar({ progress: 10, currentStepName: 'fetch-source' }),
      progressBar({ progress: 20, currentStepName: 'detect-project' }),
      '',
    ]);
  });

  it('writes a plain line per step change elsewhere, each once', () => {
    const stderr = sink(false);
    const view = createProgressView(new Output(true, sink(false).stream, stderr.stream));
    view.update(statusOf(10, [step('fetch-source', 'in_progress'), step('verify-deployment', 'pending')]));
    view.update(statusOf(10, [step('fetch-source', 'in_progress'), step('verify-deployment', 'pending')]));
    view.update(
      statusOf(90, [step('fetch-source', 'completed'), step('verify-deployment', 'failed', 'web exited')]),
    );
    view.finish();
    expect(stderr.text()).toBe(
      'fetch-source: started\nfetch-source: done\nverify-deployment: failed (web exited)\n',
    );
  });
});
