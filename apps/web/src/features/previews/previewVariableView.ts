import type { PreviewVariable } from '@slipway/contract';
import type { BadgeTone } from '../../components/ui';

/** What a preview gets for this variable, in words and a colour: nothing, production's value, or its own. */
export function previewValueText(variable: PreviewVariable): { text: string; tone: BadgeTone } {
  if (variable.has_preview_value) return { text: 'Own value for previews', tone: 'success' };
  if (variable.also_for_previews) return { text: "Production's value", tone: 'warning' };
  return { text: 'Not given to previews', tone: 'neutral' };
}

/** The variables previews get, counted for the card's heading. */
export function givenCount(variables: PreviewVariable[]): string {
  const given = variables.filter(
    (variable) => variable.also_for_previews || variable.has_preview_value,
  ).length;
  return `${given} of ${variables.length} given to previews`;
}
