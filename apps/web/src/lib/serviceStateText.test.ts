import { SERVICE_STATES } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import { isGoodState, serviceStateText } from './serviceStateText';

describe('serviceStateText', () => {
  it('says each state in plain words, with the exit code where there is one', () => {
    const texts = SERVICE_STATES.map((state) => serviceStateText({ state, exit_code: 3 }));
    expect(texts).toEqual([
      'Starting',
      'Healthy',
      'Running',
      'Completed',
      'Exited (code 3)',
      'Restarting',
      'Killed for memory (OOM)',
      'Unhealthy',
    ]);
    expect(serviceStateText({ state: 'exited', exit_code: null })).toBe('Exited');
  });

  it('counts only healthy, running and completed services as good', () => {
    expect(SERVICE_STATES.filter(isGoodState)).toEqual(['healthy', 'running', 'completed']);
  });
});
