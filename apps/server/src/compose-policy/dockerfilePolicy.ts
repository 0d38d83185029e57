import { DockerfileParser } from 'dockerfile-ast';
import { IMAGE_PROBLEM_TEXT, imageReferenceProblem } from './imageReference.js';

/**
 * The images a Dockerfile builds on — every stage's `FROM`, `COPY --from`, `RUN --mount=…,from=` and the
 * `# syntax=` frontend — each held to the image rule after `ARG` defaults and the compose file's build args are
 * substituted. Earlier stages of the same Dockerfile (by name or index) and `scratch` are always allowed.
 * Parsed with dockerfile-ast (the parser of the Docker language server), which knows line continuations,
 * escape directives and heredocs.
 */
export interface DockerfileFinding {
  /** The instruction as written, e.g. "FROM ${BASE}" or "COPY --from=abc". */
  instruction: string;
  reason: string;
}

const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** Docker's substitution: $X, ${X}, ${X:-word}, ${X-word}, ${X:+word}, ${X+word}; unknown variables are empty. */
export function expandArgs(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(VARIABLE, (_all, braced?: string, operator?: string, word = '', bare?: string) => {
    const name = (braced ?? bare)!;
    const value = values.get(name);
    switch (operator) {
      case ':-':
        return value ? value : word;
      case '-':
        return value ?? word;
      case ':+':
        return value ? word : '';
      case '+':
        return value !== undefined ? word : '';
      default:
        return value ?? '';
    }
  });
}

/** Compose's `build.args` in either form; a bare key (value from the environment) sets nothing. */
export function buildArgsMap(args: unknown): Map<string, string> {
  const map = new Map<string, string>();
  if (Array.isArray(args)) {
    for (const item of args) {
      const text = String(item);
      const at = text.indexOf('=');
      if (at > 0) map.set(text.slice(0, at), text.slice(at + 1));
    }
  } else if (args && typeof args === 'object') {
    for (const [key, value] of Object.entries(args)) {
      if (value !== null && value !== undefined) map.set(key, String(value));
    }
  }
  return map;
}

export function checkDockerfile(
  text: string,
  buildArgs: ReadonlyMap<string, string>,
  workspaceId: string,
): DockerfileFinding[] {
  const dockerfile = DockerfileParser.parse(text);
  const findings: DockerfileFinding[] = [];
  const globals = new Map<string, string>();
  for (const arg of dockerfile.getInitialARGs()) {
    const property = arg.getProperty();
    const name = property?.getName();
    if (!name) continue;
    const fallback = property?.getValue();
    const given = buildArgs.get(name);
    if (given !== undefined) globals.set(name, given);
    else if (fallback !== null && fallback !== undefined) globals.set(name, expandArgs(fallback, globals));
  }
  const stages = new Set<string>();
  let stageCount = 0;
  const isStage = (ref: string) => stages.has(ref.toLowerCase()) || /^\d+$/.test(ref);
  const judge = (instruction: string, written: string, values: ReadonlyMap<string, string>) => {
    const expanded = expandArgs(written, values).trim();
    if (expanded === 'scratch' || isStage(expanded)) return;
    const problem = expanded.includes('$') ? 'not_a_reference' : imageReferenceProblem(expanded, workspaceId);
    if (problem) findings.push({ instruction, reason: IMAGE_PROBLEM_TEXT[problem] });
  };

  const syntax = dockerfile.getDirectives().find((d) => d.getName()?.toLowerCase() === 'syntax');
  const frontend = syntax?.getValue();
  if (frontend) judge(`# syntax=${frontend}`, frontend, new Map());

  let scope = new Map(globals);
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword().toUpperCase();
    const shown = instruction.getTextContent().split('\n')[0]!.trim().slice(0, 200);
    if (keyword === 'FROM') {
      const from = dockerfile.getFROMs()[stageCount];
      judge(shown, from?.getImage() ?? '', globals);
      stageCount++;
      const stage = from?.getBuildStage();
      scope = new Map(globals);
      if (stage) stages.add(stage.toLowerCase());
    } else if (keyword === 'ARG') {
      for (const property of (instruction as unknown as ArgLike).getProperties?.() ?? []) {
        const name = property.getName();
        const value = property.getValue();
        const given = buildArgs.get(name) ?? globals.get(name);
        if (given !== undefined) scope.set(name, given);
        else if (value !== null) scope.set(name, expandArgs(value, scope));
      }
    } else if (keyword === 'COPY' || keyword === 'RUN' || keyword === 'ADD') {
      for (const flag of (instruction as unknown as FlagsLike).getFlags?.() ?? []) {
        const name = flag.getName().toLowerCase();
        if (name === 'from' && keyword === 'COPY') judge(shown, flag.getValue() ?? '', scope);
        if (name === 'mount') {
          const source = flag.getOption('from')?.getValue();
          if (source) judge(shown, source, scope);
        }
      }
    }
  }
  return findings;
}

interface ArgLike {
  getProperties?(): { getName(): string; getValue(): string | null }[];
}
interface FlagsLike {
  getFlags?(): {
    getName(): string;
    getValue(): string | null;
    getOption(name: string): { getValue(): string | null } | null;
  }[];
}
