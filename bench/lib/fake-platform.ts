/**
 * The fake storefront platform of the tests, as a process of its own for `bench/platform-sync.ts`
 * (so its memory is not counted with Rebound's). Prints `Listening on <api_url>` once it listens.
 */
import { FakePlatform } from '../../test/helpers/fake-platform/server.js';

const shape = JSON.parse(process.env.FAKE_SHAPE ?? '{}');
const fake = await new FakePlatform({ shape, pollsToComplete: 2 }).start();
process.stdout.write(`Listening on ${fake.apiUrl} token ${fake.token}\n`);
process.on('SIGTERM', () => void fake.stop().then(() => process.exit(0)));
