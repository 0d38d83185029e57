import { describe, expect, it } from 'vitest';
import { givenCount, previewValueText } from './previewVariableView';

const variable = { key: 'DATABASE_URL', also_for_previews: false, has_preview_value: false };

describe('a variable as previews see it', () => {
  it('says whether previews get nothing, production’s value or a value of their own', () => {
    expect(previewValueText(variable)).toEqual({ text: 'Not given to previews', tone: 'neutral' });
    expect(previewValueText({ ...variable, also_for_previews: true })).toEqual({
      text: "Production's value",
      tone: 'warning',
    });
    expect(previewValueText({ ...variable, also_for_previews: true, has_preview_value: true })).toEqual({
      text: 'Own value for previews',
      tone: 'success',
    });
  });

  it('counts those previews get', () => {
    expect(givenCount([])).toBe('0 of 0 given to previews');
    expect(
      givenCount([variable, { ...variable, key: 'A', also_for_previews: true }, { ...variable, key: 'B' }]),
    ).toBe('1 of 3 given to previews');
  });
});
