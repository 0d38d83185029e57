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
  it('maps active to in_progress and unknown to pending', () => {
    expect(normaliseStepStatus('active')).toBe('in_progress');
    expect(normaliseStepStatus('in_progress')).toBe('in_progress');
    expect(normaliseStepStatus('skipped')).toBe('pending');
    expect(normaliseStepStatus(undefined)).toBe('pending');
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
  it('uses https for names and http for localhost or IP addresses', () => {
    expect(normaliseSiteUrl('app.example.com')).toBe('https://app.example.com');
    expect(normaliseSiteUrl('http://app.example.com/x')).toBe('https://app.example.com/x');
    expect(normaliseSiteUrl('localhost:8080')).toBe('http://localhost:8080');
    expect(normaliseSiteUrl('https://localhost:8443/')).toBe('http://localhost:8443/');
    expect(normaliseSiteUrl('https://web-shop.localhost:8443')).toBe('https://web-shop.localhost:8443');
    expect(normaliseSiteUrl('10.0.0.4:3000')).toBe('http://10.0.0.4:3000');
    expect(normaliseSiteUrl('http://[::1]:80')).toBe('http://[::1]:80');
    expect(normaliseSiteUrl('  ')).toBeNull();
    expect(normaliseSiteUrl(null)).toBeNull();
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
