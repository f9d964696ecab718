import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The Dockerfile's instructions of one stage, by keyword. */
function stage(name: string): { from: string; lines: string[] } {
  const text = read('Dockerfile').replace(/\\\n\s*/g, ' ');
  const stages = text.split(/^FROM /m).slice(1);
  const found = stages.find((s) => new RegExp(`^\\S+ AS ${name}\\b`).test(s));
  if (!found) throw new Error(`no stage ${name}`);
  const lines = found.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  return { from: lines[0]!.split(' ')[0]!, lines };
}

describe('the container image (Dockerfile)', () => {
  const runtime = stage('runtime');
  const instruction = (keyword: string) => runtime.lines.filter((l) => l.startsWith(`${keyword} `));

  it('builds with the dev dependencies and runs on a pinned slim Node 20 base', () => {
    expect(stage('build').lines.join('\n')).toMatch(/npm run build/);
    expect(runtime.from).toMatch(/^node:20\.\d+\.\d+-[a-z]+-slim$/);
    expect(stage('build').from).toBe(runtime.from);
  });

  it('runs as an unprivileged user with SQLite in the /data volume', () => {
    expect(instruction('USER')).toEqual(['USER node']);
    expect(instruction('VOLUME')).toEqual(['VOLUME ["/data"]']);
    expect(runtime.lines.join('\n')).toMatch(/DATABASE_URL=sqlite:\/data\//);
    // The allocator's setting the cluster's workers get (src/config/memory.ts), for the image's one process too.
    expect(runtime.lines.join('\n')).toMatch(/MALLOC_MMAP_THRESHOLD_=131072 /);
    // A production database gets no demo shop, its keys and its sample customers, unless asked.
    expect(runtime.lines.join('\n')).toMatch(/REBOUND_DEMO=false\b/);
  });

  it('stops on SIGTERM and checks /readyz with the script CI runs on the production copy', () => {
    expect(instruction('STOPSIGNAL')).toEqual(['STOPSIGNAL SIGTERM']);
    const [healthcheck] = instruction('HEALTHCHECK');
    expect(healthcheck).toMatch(/CMD \["node", "scripts\/healthcheck\.mjs"\]$/);
    expect(read('scripts/healthcheck.mjs')).toMatch(/\/readyz/);
    expect(read('.ci/run')).toMatch(/node scripts\/healthcheck\.mjs/);
  });

  it('starts the server the way npm start and CI do', () => {
    // With the young generation the server is sized for (src/config/memory.ts, SEMI_SPACE_MB).
    expect(instruction('CMD')).toEqual(['CMD ["node", "--max-semi-space-size=4", "dist/src/cli/main.js", "serve"]']);
    const manifest = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(manifest.scripts.start).toBe('node --max-semi-space-size=4 dist/src/cli/main.js serve');
    expect(read('.ci/run')).toMatch(/node dist\/src\/cli\/main\.js serve/);
  });

  it('copies from the build stage only what exists there', () => {
    const copied = instruction('COPY').flatMap((l) =>
      l
        .replace(/^COPY --from=build /, '')
        .split(' ')
        .slice(0, -1),
    );
    expect(copied.length).toBeGreaterThan(3);
    // dist/ and node_modules/ are made by the build stage; everything else comes from the repository.
    for (const path of copied
      .map((p) => p.replace(/^\/app\//, ''))
      .filter((p) => !['dist', 'node_modules'].includes(p)))
      expect(existsSync(join(ROOT, path)), path).toBe(true);
  });
});

describe('.env.example', () => {
  it('documents every setting the server reads', () => {
    const sources = readdirSync(join(ROOT, 'src', 'config')).map((f) => read(join('src', 'config', f)));
    const names = new Set(
      sources.flatMap((s) => [...s.matchAll(/(?:'|env\.)([A-Z][A-Z0-9_]{2,})\b/g)].map((m) => m[1]!)),
    );
    expect([...names]).toEqual(expect.arrayContaining(['DATABASE_URL', 'TRUST_PROXY', 'REBOUND_SHUTDOWN_GRACE_MS']));
    const example = read('.env.example');
    expect([...names].filter((name) => !new RegExp(`^#? ?${name}=`, 'm').test(example))).toEqual([]);
  });

  it('sets nothing when copied as it is: the image keeps its own database path in the volume', () => {
    // An active DATABASE_URL=sqlite:data/… sent the image's database to /app/data, which its user cannot write.
    expect(
      read('.env.example')
        .split('\n')
        .filter((line) => /^\s*[A-Z][A-Z0-9_]*=/.test(line)),
    ).toEqual([]);
  });
});

const composeCli = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
if (!composeCli && process.env.CI === 'true')
  throw new Error('docker-compose is required in CI to check compose.yaml (apt-get install -y docker-compose).');
if (!composeCli)
  console.warn('!! docker-compose not found: SKIPPING the compose.yaml check (apt-get install -y docker-compose).');

describe.runIf(composeCli)('the compose stack (compose.yaml, parsed by docker-compose)', () => {
  const config = (...args: (string | Record<string, string>)[]) => {
    const env = Object.assign({}, ...args.filter((a) => typeof a !== 'string'));
    const flags = args.filter((a): a is string => typeof a === 'string');
    const result = spawnSync('docker-compose', ['-f', join(ROOT, 'compose.yaml'), 'config', ...flags], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', POSTGRES_PASSWORD: 'from-the-env-file', ...env },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return result.stdout;
  };

  it('has two Rebound nodes, their migration, PostgreSQL, Redis and HAProxy', () => {
    expect(config('--services').trim().split('\n').sort()).toEqual([
      'haproxy',
      'migrate',
      'postgres',
      'rebound1',
      'rebound2',
      'redis',
    ]);
  });

  it('wires the nodes to the database, Redis and the shipped HAProxy configuration', () => {
    const text = config();
    expect(text).toMatch(/DATABASE_URL: postgres:\/\/rebound:from-the-env-file@postgres:5432\/rebound/);
    expect(text).toMatch(/REDIS_URL: redis:\/\/redis:6379/);
    expect(text).toMatch(/deploy\/haproxy\.cfg:\/usr\/local\/etc\/haproxy\/haproxy\.cfg:ro/);
    expect(text).toMatch(/REBOUND_NODE_1: rebound1:3000/);
    expect(text).toMatch(/REBOUND_NODE_2: rebound2:3000/);
    expect(text).toMatch(/condition: service_completed_successfully/);
    expect(text.match(/REBOUND_DEMO: .*/g)).toEqual(Array(3).fill('REBOUND_DEMO: "false"'));
  });

  it('passes every setting of .env.example on to the nodes, apart from those the stack sets itself', () => {
    const STACK_SETS = ['PORT', 'HOST', 'DATABASE_URL', 'REDIS_URL', 'TRUST_PROXY'];
    const COMPOSE_ONLY = [
      'POSTGRES_PASSWORD',
      'REBOUND_HTTP_PORT',
      'REBOUND_STOP_GRACE_PERIOD',
      'REBOUND_PROXY_CONNECTIONS_PER_CLIENT',
    ];
    const documented = [...readFileSync(join(ROOT, '.env.example'), 'utf8').matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)]
      .map((m) => m[1]!)
      .filter((name) => !STACK_SETS.includes(name) && !COMPOSE_ONLY.includes(name));
    expect(documented.length).toBeGreaterThan(20);
    const env = Object.fromEntries(documented.map((name, i) => [name, `value-${i}`]));
    const text = config({ ...env, REBOUND_STOP_GRACE_PERIOD: '45s' });
    const missing = documented.filter((name, i) => text.split(`${name}: value-${i}`).length - 1 !== 3);
    expect(missing).toEqual([]);
    expect(text.match(/stop_grace_period: .*/g)).toEqual(Array(3).fill('stop_grace_period: 45s'));
    // The proxy's own bound reaches the proxy.
    expect(config({ REBOUND_PROXY_CONNECTIONS_PER_CLIENT: '77' })).toMatch(
      /REBOUND_PROXY_CONNECTIONS_PER_CLIENT: ['"]77['"]/,
    );
  });
});
