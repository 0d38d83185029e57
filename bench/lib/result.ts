/**
 * The one format every bench reports its headline figures in, which `npm run bench` (bench/run.ts) collects
 * into a table: a line `RESULT\t<measure>\t<figure>\t<goal>\t<peer>` on stdout, with `-` for a goal or peer
 * figure that does not exist. Benches keep their human output beside these lines.
 */
export function printResult(measure: string, figure: string, goal = '-', peer = '-'): void {
  const clean = (text: string) => text.replace(/[\t\n]/g, ' ').trim() || '-';
  console.log(['RESULT', measure, figure, goal, peer].map(clean).join('\t'));
}

export interface ResultLine {
  measure: string;
  figure: string;
  goal: string;
  peer: string;
}

/** The RESULT lines of a bench's output, in order. */
export function parseResults(output: string): ResultLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('RESULT\t'))
    .map((line) => {
      const [, measure = '-', figure = '-', goal = '-', peer = '-'] = line.split('\t');
      return { measure, figure, goal, peer };
    });
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The value at percentile `p` (nearest rank: the smallest value with at least p % of them at or below it). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
