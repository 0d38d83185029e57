import type { WorkflowStatus } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import {
  currentStepIndex,
  displaySteps,
  isDeploymentComplete,
  normaliseSiteUrl,
  normaliseStepStatus,
  phaseFor,
  siteUrlFrom,
} from './deployProgress';

const status = (patch: Partial<WorkflowStatus>): WorkflowStatus => ({
  success: true,
  sessionId: 's',
  state: 'started',
  currentStep: 0,
  currentStepName: '',
  progress: 0,
  workflowComplete: false,
  totalSteps: 3,
  steps: [],
  error: null,
  data: {
    deployJobId: 'j',
    deploymentData: { metadata: { service_url: null, url: null, urls: {}, output: '' } },
  },
  ...patch,
});

describe('phaseFor', () => {
  it('splits by thirds of the step count', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => phaseFor(i, 9))).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3]);
    expect([0, 1, 2].map((i) => phaseFor(i, 3))).toEqual([1, 2, 3]);
    expect(phaseFor(0, 0)).toBe(1);
    expect([0, 1, 2, 3].map((i) => phaseFor(i, 4))).toEqual([1, 2, 3, 3]);
  });
});

describe('step statuses', () => {
  it.each([
    ['active', 'in_progress'],
    ['in_progress', 'in_progress'],
    ['skipped', 'pending'],
    [undefined, 'pending'],
  ])('maps step status %s to %s (active is in_progress, unknown is pending)', (raw, shown) => {
    expect(normaliseStepStatus(raw)).toBe(shown);
  });
  it('shows a pending current step of a waiting workflow as in_progress', () => {
    const steps = [
      { name: 'a', description: '', status: 'completed' as const },
      { name: 'b', description: '', status: 'pending' as const },
    ];
    const waiting = status({ state: 'waiting' as WorkflowStatus['state'], currentStepName: 'b', steps });
    expect(displaySteps(waiting).map((s) => s.status)).toEqual(['completed', 'in_progress']);
    expect(displaySteps(status({ currentStepName: 'b', steps })).map((s) => s.status)).toEqual([
      'completed',
      'pending',
    ]);
  });
  it('derives statuses from the current step when steps carry none', () => {
    const steps = ['a', 'b', 'c'].map((name) => ({ name, description: '' })) as WorkflowStatus['steps'];
    expect(displaySteps(status({ currentStep: 1, steps })).map((s) => s.status)).toEqual([
      'completed',
      'in_progress',
      'pending',
    ]);
    expect(currentStepIndex({ currentStep: 99, currentStepName: 'x', steps })).toBe(2);
  });
  it('needs workflowComplete to call it complete', () => {
    expect(isDeploymentComplete(status({ state: 'completed' }))).toBe(false);
    expect(isDeploymentComplete(status({ state: 'completed', workflowComplete: true }))).toBe(true);
  });
});

describe('site URL', () => {
  it.each([
    ['app.example.com', 'https://app.example.com'],
    ['http://app.example.com/x', 'https://app.example.com/x'],
    ['localhost:8080', 'http://localhost:8080'],
    ['https://localhost:8443/', 'http://localhost:8443/'],
    ['https://web-shop.localhost:8443', 'https://web-shop.localhost:8443'],
    ['10.0.0.4:3000', 'http://10.0.0.4:3000'],
    ['http://[::1]:80', 'http://[::1]:80'],
    ['  ', null],
    [null, null],
  ])('opens %j as %s (https for names, http for localhost or IP addresses)', (raw, url) => {
    expect(normaliseSiteUrl(raw)).toBe(url);
  });
  it('reads service_url, then url, then urls', () => {
    const meta = (m: Partial<WorkflowStatus['data']['deploymentData']['metadata']>) =>
      status({
        data: {
          deployJobId: 'j',
          deploymentData: { metadata: { service_url: null, url: null, urls: {}, output: '', ...m } },
        },
      });
    expect(siteUrlFrom(meta({ service_url: 'a.io', url: 'b.io' }))).toBe('https://a.io');
    expect(siteUrlFrom(meta({ url: 'b.io' }))).toBe('https://b.io');
    expect(siteUrlFrom(meta({ urls: { web: 'http://127.0.0.1:8080' } }))).toBe('http://127.0.0.1:8080');
    expect(siteUrlFrom(meta({}))).toBeNull();
  });
});
