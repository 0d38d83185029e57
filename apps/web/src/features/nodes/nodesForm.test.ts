import type { WorkspaceNodes } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import { NODES_FORM } from './nodesForm';

const saved: WorkspaceNodes = {
  node_count: 2,
  nodes: [
    { index: 1, state: 'ready', role: 'manager', leaving: false, message: null },
    {
      index: 2,
      state: 'pending',
      role: null,
      leaving: false,
      message: 'Node 2 gets its VM at the next deployment',
    },
  ],
};

describe('the Nodes form', () => {
  it('starts from the saved count, as text, and knows when nothing changed', () => {
    const form = NODES_FORM.toForm(saved);
    expect(form).toEqual({ nodes: '2' });
    expect(NODES_FORM.same(form, saved)).toBe(true);
    expect(NODES_FORM.same({ nodes: ' 2 ' }, saved)).toBe(true);
    expect(NODES_FORM.same({ nodes: '3' }, saved)).toBe(false);
  });

  it('sends a whole number from 1 to 5, and says what is wrong with anything else', () => {
    expect(NODES_FORM.toRequest({ nodes: ' 3 ' })).toEqual({ settings: 3 });
    expect(NODES_FORM.toRequest({ nodes: '6' })).toEqual({
      problems: { nodes: 'A workspace runs on at most 5 nodes' },
    });
    expect(NODES_FORM.toRequest({ nodes: '0' })).toEqual({
      problems: { nodes: 'A workspace runs on at least 1 node' },
    });
    expect(NODES_FORM.toRequest({ nodes: '2.5' })).toEqual({
      problems: { nodes: 'The number of nodes is a whole number from 1 to 5' },
    });
    expect(NODES_FORM.toRequest({ nodes: '' })).toEqual({
      problems: { nodes: 'The number of nodes is a whole number from 1 to 5' },
    });
  });

  it("takes the field's bounds from the contract", () => {
    expect(NODES_FORM.bounds?.nodes).toMatchObject({ minValue: 1, maxValue: 5 });
  });
});
