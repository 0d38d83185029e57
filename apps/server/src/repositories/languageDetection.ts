import path from 'node:path';

/** Extensions to GitHub's language names (the ones the picker has colours for, and a few more). */
const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  '.ts': 'TypeScript',
  '.tsx': 'TypeScript',
  '.mts': 'TypeScript',
  '.cts': 'TypeScript',
  '.js': 'JavaScript',
  '.jsx': 'JavaScript',
  '.mjs': 'JavaScript',
  '.cjs': 'JavaScript',
  '.py': 'Python',
  '.go': 'Go',
  '.rs': 'Rust',
  '.java': 'Java',
  '.kt': 'Kotlin',
  '.kts': 'Kotlin',
  '.scala': 'Scala',
  '.rb': 'Ruby',
  '.php': 'PHP',
  '.cs': 'C#',
  '.fs': 'F#',
  '.c': 'C',
  '.h': 'C',
  '.cc': 'C++',
  '.cpp': 'C++',
  '.cxx': 'C++',
  '.hpp': 'C++',
  '.swift': 'Swift',
  '.dart': 'Dart',
  '.ex': 'Elixir',
  '.exs': 'Elixir',
  '.erl': 'Erlang',
  '.hs': 'Haskell',
  '.clj': 'Clojure',
  '.lua': 'Lua',
  '.pl': 'Perl',
  '.r': 'R',
  '.sh': 'Shell',
  '.bash': 'Shell',
  '.vue': 'Vue',
  '.svelte': 'Svelte',
  '.html': 'HTML',
  '.css': 'CSS',
  '.scss': 'SCSS',
};

/** Folders of vendored or generated code that would outvote the project's own language. */
const IGNORED_FOLDERS = new Set(['node_modules', 'vendor', 'dist', 'build', 'third_party', '.git']);

function languageOf(file: string): string | undefined {
  const base = path.posix.basename(file);
  if (base === 'Dockerfile' || base.startsWith('Dockerfile.') || base.endsWith('.dockerfile'))
    return 'Dockerfile';
  return LANGUAGE_BY_EXTENSION[path.posix.extname(base).toLowerCase()];
}

/**
 * The repository's main language, as GitHub would roughly name it: the language with the most files.
 * Markup and styles count only when nothing else is there; a Dockerfile wins only in a repository of
 * nothing but Docker files. Ties go to the language seen first.
 */
export function detectLanguage(files: string[]): string | null {
  const counts = new Map<string, number>();
  for (const file of files) {
    if (file.split('/').some((segment) => IGNORED_FOLDERS.has(segment))) continue;
    const language = languageOf(file);
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const weak = new Set(['HTML', 'CSS', 'SCSS', 'Dockerfile', 'Shell']);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const strong = ranked.find(([language]) => !weak.has(language));
  return strong?.[0] ?? ranked[0]?.[0] ?? null;
}
