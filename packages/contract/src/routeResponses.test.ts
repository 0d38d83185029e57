import { describe, expect, it } from 'vitest';
import {
  alert,
  alertConfig,
  RESPONSE_SAMPLES as SAMPLES,
  user,
  workflowStatus,
  workspace,
} from './routeResponses.samples.js';
import { ROUTE_LIST, ROUTES } from './routes.js';

describe('response schemas of the route table', () => {
  it('has a sample for every declared answer', () => {
    const missing = ROUTE_LIST.flatMap((definition) =>
      Object.keys(definition.responses)
        .filter((status) => SAMPLES[definition.name]?.[Number(status)] === undefined)
        .map((status) => `${definition.name} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  for (const definition of ROUTE_LIST) {
    for (const [status, schema] of Object.entries(definition.responses)) {
      it(`${definition.name} ${status} parses its sample`, () => {
        const result = schema.safeParse(SAMPLES[definition.name]?.[Number(status)]);
        expect(result.error?.issues ?? []).toEqual([]);
      });
    }
  }

  it('refuses fields the server must never send', () => {
    expect(ROUTES.currentUser.responses[200].safeParse({ ...user, github_token: 'gho_x' }).success).toBe(
      false,
    );
    const leaked = { ...alertConfig.sinks[0], config_sealed: { $vault: 'x' } };
    expect(ROUTES.getAlertConfig.responses[200].safeParse({ ...alertConfig, sinks: [leaked] }).success).toBe(
      false,
    );
  });

  it('refuses wrong types and values outside the spec', () => {
    expect(
      ROUTES.listWorkspaces.responses[200].safeParse([{ ...workspace, created_at: 'yesterday' }]).success,
    ).toBe(false);
    expect(ROUTES.activeAlerts.responses[200].safeParse([{ ...alert, severity: 'fatal' }]).success).toBe(
      false,
    );
    expect(ROUTES.getSessionState.responses[200].safeParse({ exists: true, stateData: null }).success).toBe(
      false,
    );
    expect(
      ROUTES.deploymentStatus.responses[200].safeParse({ ...workflowStatus, progress: 120 }).success,
    ).toBe(false);
  });

  it('lets cAdvisor fields Slipway does not read through', () => {
    const parsed = ROUTES.cadvisorMachine.responses[200].parse(SAMPLES.cadvisorMachine?.[200]);
    expect(parsed).toMatchObject({ extra_from_cadvisor: { topology: [] } });
  });
});
