import type { WorkflowStatus } from '@slipway/contract';
import type { Output } from './output.js';

const BAR_WIDTH = 30;

/** `[#########.....................]  30%  deploy-application` */
export function progressBar(status: Pick<WorkflowStatus, 'progress' | 'currentStepName'>): string {
  const percent = Math.max(0, Math.min(100, Math.round(status.progress)));
  const filled = Math.round((percent / 100) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(percent).padStart(3)}%  ${status.currentStepName}`;
}

/**
 * Shows a deployment's progress on stderr: one bar redrawn in place on a terminal, and a plain line per step
 * change elsewhere (a CI log keeps every line, so a redrawn bar would be noise there).
 */
export function createProgressView(output: Output) {
  const seen = new Map<string, string>();
  let drawn = false;
  return {
    update(status: WorkflowStatus) {
      if (output.interactive) {
        output.raw(`\r\x1b[2K${progressBar(status)}`);
        drawn = true;
        return;
      }
      for (const step of status.steps) {
        if (step.status === 'pending' || seen.get(step.name) === step.status) continue;
        seen.set(step.name, step.status);
        const word = { in_progress: 'started', completed: 'done', failed: 'failed' }[step.status];
        output.note(`${step.name}: ${word}${step.error ? ` (${step.error})` : ''}`);
      }
    },
    finish() {
      if (drawn) output.raw('\r\x1b[2K');
      drawn = false;
    },
  };
}
