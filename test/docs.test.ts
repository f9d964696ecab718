import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/domain/errors.js';
import { documentedErrorCodes } from './helpers/error-codes.js';

const ROOT = join(import.meta.dirname, '..');
const SELF = resolve(import.meta.filename);

/** Every file under a folder of the repository (build output and dependencies left out). */
function filesUnder(dir: string): string[] {
  const path = join(ROOT, dir);
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    return filesUnder(join(dir, name));
  });
}

const SOURCES = ['src', 'test', 'console', 'widget', 'bench', 'demo']
  .flatMap(filesUnder)
  .filter((f) => /\.(ts|tsx|mts|js|mjs|cfg|css|md|html)$/.test(f));
const DOCS = filesUnder('docs').filter((f) => f.endsWith('.md'));
const MARKDOWN = [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...DOCS];

/** The headings of a Markdown file, as written (without the #'s), outside code blocks. */
function headingsOf(file: string): string[] {
  let fenced = false;
  const out: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Relative links of a Markdown file: `[text](target)` outside code, without URLs or mail links. */
function linksOf(file: string): { target: string; anchor: string | null }[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t))
    .map((t) => {
      const [path, anchor] = t.split('#') as [string, string | undefined];
      return { target: path, anchor: anchor ?? null };
    });
}

describe('documentation', () => {
  it('finds the files it checks', () => {
    // Guards every check below from passing by reading nothing.
    expect(SOURCES.length).toBeGreaterThan(100);
    expect(DOCS.map((f) => relative(ROOT, f))).toEqual(
      expect.arrayContaining(['docs/api.md', 'docs/rules.md', 'docs/operations.md', 'docs/design.md']),
    );
  });

  it('has every section that the code cites as docs/<file>.md, "Section"', () => {
    const citations = SOURCES.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/docs\/([\w-]+\.md), "([^"]+)"/g)].map((m) => ({
        at: relative(ROOT, file),
        doc: m[1]!,
        section: m[2]!,
      })),
    );
    expect(citations.length).toBeGreaterThan(30);
    const headings = new Map<string, string[]>();
    const missing = citations.filter(({ doc, section }) => {
      const path = join(ROOT, 'docs', doc);
      if (!headings.has(doc)) headings.set(doc, existsSync(path) ? headingsOf(path) : []);
      return !headings.get(doc)!.includes(section);
    });
    expect(missing.map((c) => `${c.at} cites docs/${c.doc}, "${c.section}"`)).toEqual([]);
  });

  it('links only to files and sections that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of MARKDOWN) {
      for (const { target, anchor } of linksOf(file)) {
        checked++;
        const path = target === '' ? file : resolve(dirname(file), target);
        if (!existsSync(path)) {
          broken.push(`${relative(ROOT, file)} → ${target}`);
        } else if (anchor !== null && path.endsWith('.md') && !headingsOf(path).map(anchorOf).includes(anchor)) {
          broken.push(`${relative(ROOT, file)} → ${target}#${anchor}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it('keeps the README a front door: under 12 KB, linking every document', () => {
    const readme = readFileSync(join(ROOT, 'README.md'));
    expect(readme.byteLength).toBeLessThan(12_288);
    const targets = new Set(linksOf(join(ROOT, 'README.md')).map((l) => resolve(ROOT, l.target)));
    const unlinked = [...DOCS, join(ROOT, 'CONTRIBUTING.md')]
      .filter((f) => !targets.has(f))
      .map((f) => relative(ROOT, f));
    expect(unlinked).toEqual([]);
  });

  it('lists every error code with its status in api.md, and no other', () => {
    const declared = Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]);
    expect(declared.length).toBeGreaterThan(20);
    expect([...documentedErrorCodes()]).toEqual(declared);
  });

  it('stands alone: cites no file outside the repository', () => {
    const files = [...['src', 'test', 'console', 'widget', 'docs'].flatMap(filesUnder), join(ROOT, 'README.md')].filter(
      (f) => resolve(f) !== SELF,
    );
    const outside = files
      .filter((f) => /product\.md|shared\/spec/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(outside).toEqual([]);
  });
});
